import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OnTheMapAPI
import XCTest

/// What came back: status, headers and body, with helpers for the API's two body shapes.
struct TestResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    var isPrefixed: Bool { body.starts(with: Data(OnTheMapHTTP.antiHijackingPrefix.utf8)) }

    /// Decodes the body, skipping the anti-hijacking prefix if present.
    func decode<T: Decodable>(_ type: T.Type, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        do {
            return try JSONDecoder.onTheMap().decode(T.self, from: OnTheMapHTTP.strippingPrefix(body))
        } catch {
            XCTFail("Not a \(T.self) (\(status)): \(String(decoding: body, as: UTF8.self))", file: file, line: line)
            throw error
        }
    }

    /// The cookies set by this response (name → value).
    var cookies: [String: String] {
        // URLSession joins repeated Set-Cookie headers with ", "; the server's cookies contain no commas.
        let joined = header("Set-Cookie") ?? ""
        var cookies: [String: String] = [:]
        for cookie in joined.components(separatedBy: ", ") {
            let pair = cookie.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 { cookies[String(parts[0]).trimmingCharacters(in: .whitespaces)] = String(parts[1]) }
        }
        return cookies
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A plain HTTP client over URLSession (as the desktop client will be), with no cookie storage of its own:
/// each test says exactly which cookies and headers it sends.
struct APIClient: Sendable {
    let baseURL: URL
    private let session: URLSession

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        session = URLSession(configuration: configuration)
    }

    func send(_ method: String, _ path: String, body: Data? = nil, contentType: String? = "application/json",
              headers: [String: String] = [:]) async throws -> TestResponse {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }

    func send<Body: Encodable>(_ method: String, _ path: String, json: Body,
                               headers: [String: String] = [:]) async throws -> TestResponse {
        try await send(method, path, body: JSONEncoder.onTheMap().encode(json), headers: headers)
    }

    // MARK: The API's steps

    func login(_ email: String, _ password: String) async throws -> TestResponse {
        try await send("POST", "/v1/session", json: SessionRequest(udacity: .init(username: email, password: password)))
    }

    /// Logs in and returns the session id (for `X-Session-Id`) and the response.
    func session(_ email: String, _ password: String = "correct horse") async throws -> (id: String, key: String,
                                                                                      response: TestResponse) {
        let response = try await login(email, password)
        XCTAssertEqual(response.status, 200, response.text)
        let body = try response.decode(SessionResponse.self)
        return (body.session.id, body.account.key, response)
    }

    func list(_ query: String = "") async throws -> [StudentLocation] {
        let response = try await send("GET", "/v1/StudentLocation\(query)")
        XCTAssertEqual(response.status, 200, response.text)
        return try response.decode(StudentLocationList.self).results
    }

    func post(_ posting: StudentLocationPosting, sessionId: String?) async throws -> TestResponse {
        try await send("POST", "/v1/StudentLocation", json: posting,
                       headers: sessionId.map { ["X-Session-Id": $0] } ?? [:])
    }

    func put(_ objectId: String, _ posting: StudentLocationPosting, sessionId: String?) async throws -> TestResponse {
        try await send("PUT", "/v1/StudentLocation/\(objectId)", json: posting,
                       headers: sessionId.map { ["X-Session-Id": $0] } ?? [:])
    }
}

extension StudentLocationPosting {
    static func sample(key: String, latitude: Double = 48.8566, longitude: Double = 2.3522,
                       mediaURL: String = "https://example.org/ada", mapString: String = "Paris, France") -> Self {
        StudentLocationPosting(uniqueKey: key, firstName: "Ada", lastName: "Lovelace", mapString: mapString,
                               mediaURL: mediaURL, latitude: latitude, longitude: longitude)
    }
}

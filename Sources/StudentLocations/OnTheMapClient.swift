import Foundation
import Logging
import OnTheMapAPI
import PlainText
import Translations
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live On the Map API client over URLSession, for Udacity's server and self-hosted ones alike.
///
/// URLSession, not the AsyncHTTPClient stack of `WebAccess`, because On the Map's specification requires Foundation's
/// URL loading ("the networking code uses Swift's built-in NSURLSession library").
///
/// Writes carry the session twice: the `X-Session-Id` header (self-hosted servers; works without cookies)
/// and the session cookie plus `X-XSRF-TOKEN` from the `XSRF-TOKEN` cookie (Udacity's server needs those).
public final class OnTheMapClient: StudentLocationsAPI {
    public let baseURL: URL
    private let session: URLSession
    private let reader = AnswerReader(byteLimit: OnTheMapClient.answerByteLimit)
    private let logger: Logger
    /// "host:port", for messages.
    private let serverName: String

    public static let requestTimeout: TimeInterval = 15

    /// The most of any answer the client reads. A class of 100 at the server's own field limits (2,048-character
    /// links, 200-character places, names and keys in up to 4-byte UTF-8, slashes escaped) is under 1 MB, a real
    /// one about 35 KB: 4 MB leaves room for any honest answer, and a service that sends 60 MB costs 4.
    public static let answerByteLimit = 4_000_000

    /// `baseURL` as `ServerAddress.resolve` returns it (ending in `/v1/`). The client makes its own ephemeral
    /// session, so its cookies are its own and vanish with it.
    public init(baseURL: URL, logger: Logger) {
        let text = baseURL.absoluteString
        self.baseURL = text.hasSuffix("/") ? baseURL : URL(string: text + "/") ?? baseURL
        session = URLSession(configuration: Self.sessionConfiguration(), delegate: reader, delegateQueue: nil)
        self.logger = logger
        serverName = (baseURL.host ?? text) + (baseURL.port.map { ":\($0)" } ?? "")
    }

    deinit {
        // The session keeps its delegate until invalidated.
        session.finishTasksAndInvalidate()
    }

    private static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout * 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // Our own storage only ever holds this server's cookies; "main document" rules don't apply to an API.
        configuration.httpCookieAcceptPolicy = .always
        configuration.httpShouldSetCookies = true
        return configuration
    }

    // MARK: Session

    public func logIn(email: String, password: String) async throws(StudentLocationsError) -> UserSession {
        let body = SessionRequest(udacity: .init(username: email, password: password))
        let json = try await send("POST", ["session"], body: encode(body), prefixed: true, isLogin: true)
        let started = try decode(SessionResponse.self, from: json)
        let key = started.account.key
        let user = try decode(PublicUserData.self, from: try await send("GET", ["users", key], prefixed: true))
        logger.info("Logged in", metadata: ["account": "\(key)"])
        return UserSession(accountKey: key, sessionId: started.session.id, expiration: started.session.expiration,
                           firstName: PlainText.name(user.firstName), lastName: PlainText.name(user.lastName))
    }

    /// A 401 or 403 to `GET session` means the server ended the session; a server without that route (404, 405:
    /// Udacity's) cannot say, so the session is trusted until a write is refused.
    public func resume(accountKey: String, sessionId: String, expiration: Date)
        async throws(StudentLocationsError) -> UserSession {
        var live = expiration
        do throws(StudentLocationsError) {
            let json = try await send("GET", ["session"], headers: [OnTheMapHTTP.sessionIdHeader: sessionId], prefixed: true)
            let checked = try decode(SessionResponse.self, from: json)
            guard checked.account.key == accountKey else { throw .notLoggedIn }
            live = checked.session.expiration
        } catch {
            guard case .refused(let status, _) = error else { throw error }
            guard status == 404 || status == 405 else { throw status == 403 ? .notLoggedIn : error }
            logger.info("The server can't check a kept session; trusting it until a write is refused")
        }
        let user = try decode(PublicUserData.self, from: try await send("GET", ["users", accountKey], prefixed: true))
        logger.info("Resumed a kept session", metadata: ["account": "\(accountKey)"])
        return UserSession(accountKey: accountKey, sessionId: sessionId, expiration: live,
                           firstName: PlainText.name(user.firstName), lastName: PlainText.name(user.lastName))
    }

    /// A session that already ended or expired (401) counts as logged out.
    public func logOut(_ userSession: UserSession) async throws(StudentLocationsError) {
        do {
            _ = try await send("DELETE", ["session"], headers: writeHeaders(userSession), prefixed: true)
        } catch .notLoggedIn {
            logger.info("The session had already ended")
        }
        forgetCookies()
        logger.info("Logged out", metadata: ["account": "\(userSession.accountKey)"])
    }

    /// The value of the `XSRF-TOKEN` cookie the server set at login, if the cookie storage kept it.
    public var xsrfToken: String? {
        session.configuration.httpCookieStorage?.cookies(for: baseURL)?
            .first { $0.name == OnTheMapHTTP.xsrfCookie && !$0.value.isEmpty }?.value
    }

    // MARK: Locations

    /// The newest `limit`, however many the server sends: an answer over `answerByteLimit` is read up to there
    /// and the entries whole by then count (`ExcessAnswer.cutOff`), rather than showing no one.
    public func recentLocations(limit: Int) async throws(StudentLocationsError) -> RecentLocations {
        let limit = max(0, limit)
        let query = [("limit", String(limit)), ("order", StudentLocationOrder.newestFirst.rawValue)]
        let answer = try await exchange("GET", ["StudentLocation"], query: query)
        return try await newest(limit, in: answer)
    }

    /// Off the caller's thread, even when the main actor calls: thousands of entries take a while to decode.
    @concurrent
    private func newest(_ limit: Int, in answer: Answer) async throws(StudentLocationsError) -> RecentLocations {
        let recent: RecentLocations
        if answer.isCutOff {
            guard let closed = CutOffList.closed(answer.body),
                  let list = try? JSONDecoder.onTheMap().decode(TolerantStudentLocationList.self, from: closed) else {
                logger.notice("An answer over the size limit held no whole entry", metadata: ["bytes": "\(answer.body.count)"])
                throw Self.tooLarge
            }
            recent = RecentLocations(newest: limit, of: list.results, cutOffAt: Self.answerByteLimit)
        } else {
            recent = RecentLocations(newest: limit, of: try decode(TolerantStudentLocationList.self, from: answer.body).results,
                                     cutOffAt: nil)
        }
        if let excess = recent.excess {
            logger.notice("The server sent more locations than asked for", metadata: ["asked": "\(limit)", "excess": "\(excess)"])
        }
        return recent
    }

    public func location(of accountKey: String) async throws(StudentLocationsError) -> StudentInformation? {
        let query = [("uniqueKey", accountKey), ("order", StudentLocationOrder.newestFirst.rawValue), ("limit", "1")]
        let json = try await send("GET", ["StudentLocation"], query: query, prefixed: false)
        // Servers that ignore `limit` or `order` still give us the newest.
        return try decode(TolerantStudentLocationList.self, from: json).students
            .filter { $0.uniqueKey == accountKey }
            .max { $0.updatedAt < $1.updatedAt }
    }

    public func post(_ posting: StudentLocationPosting, session userSession: UserSession)
        async throws(StudentLocationsError) -> String {
        let json = try await send("POST", ["StudentLocation"], body: encode(posting),
                                  headers: writeHeaders(userSession), prefixed: false)
        let created = try decode(Created.self, from: json)
        logger.info("Posted a location", metadata: ["objectId": "\(created.objectId)"])
        return created.objectId
    }

    public func update(objectId: String, _ posting: StudentLocationPosting, session userSession: UserSession)
        async throws(StudentLocationsError) {
        _ = try await send("PUT", ["StudentLocation", objectId], body: encode(posting),
                           headers: writeHeaders(userSession), prefixed: false)
        logger.info("Updated a location", metadata: ["objectId": "\(objectId)"])
    }

    /// Only the id: some servers write `createdAt` in other date formats, and nothing here needs it.
    private struct Created: Decodable { var objectId: String }

    // MARK: HTTP

    private func writeHeaders(_ userSession: UserSession) -> [String: String] {
        var headers: [String: String] = [:]
        // An empty header would count as "sent" and hide the cookie from a self-hosted server.
        if !userSession.sessionId.isEmpty { headers[OnTheMapHTTP.sessionIdHeader] = userSession.sessionId }
        if let xsrfToken { headers[OnTheMapHTTP.xsrfHeader] = xsrfToken }
        return headers
    }

    private func forgetCookies() {
        guard let storage = session.configuration.httpCookieStorage else { return }
        for cookie in storage.cookies(for: baseURL) ?? []
        where cookie.name == OnTheMapHTTP.xsrfCookie || cookie.name == OnTheMapHTTP.sessionCookie {
            storage.deleteCookie(cookie)
        }
    }

    /// Sends one request; returns the 2xx body's JSON (prefix skipped when `prefixed`), else throws; an answer
    /// over `answerByteLimit` is a failure.
    private func send(_ method: String, _ path: [String], query: [(String, String)] = [], body: Data? = nil,
                      headers: [String: String] = [:], prefixed: Bool, isLogin: Bool = false)
        async throws(StudentLocationsError) -> Data {
        let answer = try await exchange(method, path, query: query, body: body, headers: headers, isLogin: isLogin)
        guard !answer.isCutOff else { throw Self.tooLarge }
        return prefixed ? OnTheMapHTTP.strippingPrefix(answer.body) : answer.body
    }

    /// Sends one request; returns a 2xx answer (read up to `answerByteLimit`), else throws.
    private func exchange(_ method: String, _ path: [String], query: [(String, String)] = [], body: Data? = nil,
                          headers: [String: String] = [:], isLogin: Bool = false)
        async throws(StudentLocationsError) -> Answer {
        let label = "\(method) \(path.first ?? "")" // never the path's key, query, headers or body
        var request = URLRequest(url: endpoint(path, query: query), timeoutInterval: Self.requestTimeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        logger.debug("Request", metadata: ["request": "\(label)"])
        let answer: Answer
        do {
            answer = try await reader.answer(to: request, in: session)
        } catch {
            let mapped = StudentLocationsError.transport(error, server: serverName)
            if mapped != .cancelled { logger.notice("Request failed", metadata: ["request": "\(label)",
                                                                                 "error": "\(mapped)"]) }
            throw mapped
        }
        guard let http = answer.response as? HTTPURLResponse else {
            throw .serverFailed(detail: StudentLocationsError.notHTTP)
        }
        guard (200..<300).contains(http.statusCode) else {
            let error = StudentLocationsError.http(status: http.statusCode, body: answer.body, isLogin: isLogin)
            logger.notice("Request refused", metadata: ["request": "\(label)", "status": "\(http.statusCode)"])
            throw error
        }
        if answer.isCutOff {
            logger.notice("Answer cut off at the size limit", metadata: ["request": "\(label)",
                                                                         "bytes": "\(Self.answerByteLimit)"])
        }
        return answer
    }

    /// An answer over `answerByteLimit` that can't be used in part.
    private static var tooLarge: StudentLocationsError {
        // Translators: how the server failed, shown as "The server failed (its answer was larger than 4 MB)."; %@ is
        // a size in megabytes.
        .serverFailed(detail: formatted(tr("its answer was larger than %@ MB"),
                                     (answerByteLimit / 1_000_000).formatted(.number.locale(Translations.formattingLocale))))
    }

    private func endpoint(_ path: [String], query: [(String, String)]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) ?? URLComponents()
        components.percentEncodedPath += path.map(Self.percentEncoded).joined(separator: "/")
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { Self.percentEncoded($0) + "=" + Self.percentEncoded($1) }
                .joined(separator: "&")
        }
        return components.url ?? baseURL
    }

    /// Everything but RFC 3986's unreserved characters, so keys with `/`, `+` or `&` stay one value.
    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private func encode(_ value: some Encodable) throws(StudentLocationsError) -> Data {
        do { return try JSONEncoder.onTheMap().encode(value) } catch {
            // Only non-finite numbers fail to encode; a server would refuse them with 400 too.
            throw .refused(status: 400, message: tr("Latitude and longitude must be numbers."))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(StudentLocationsError) -> T {
        do { return try JSONDecoder.onTheMap().decode(type, from: data) } catch {
            logger.notice("Unexpected answer", metadata: ["type": "\(T.self)", "bytes": "\(data.count)"])
            // Translators: how the server failed, shown as "The server failed (its answer wasn't …)."
            throw .serverFailed(detail: tr("its answer wasn't the JSON On the Map expects"))
        }
    }
}

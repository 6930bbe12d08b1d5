import FlickrTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `caching_tile_server.py` (in FlickrTestSupport's `Server/`) run as a real process: tiles with the caching
/// headers a test sets, conditional requests answered with 304, every request's headers recorded.
final class CachingTileServer: @unchecked Sendable {
    struct Request: Decodable {
        var path: String
        var headers: [String: String] // names lower-cased
        var status: Int?

        var isConditional: Bool { headers["if-none-match"] != nil || headers["if-modified-since"] != nil }
    }

    private let server: PythonTestServer
    private let lock = NSLock()
    private var stopped = false

    init() throws {
        server = try PythonTestServer(script: "caching_tile_server.py", arguments: [])
    }

    /// Ends the server (a test may, to go offline; the test's end does it again).
    func stop() {
        let running = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if running { server.stop() }
    }

    var template: String { "http://127.0.0.1:\(server.port)/#Z/#X/#Y.png" }

    /// Changes what the server says (see the script's `/__control`); `NSNull()` for "say nothing".
    func configure(_ settings: [String: Any]) throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/__control")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: settings)
        _ = try send(request)
    }

    /// Every request so far, oldest first (the controls left out).
    func requests() throws -> [Request] {
        struct Log: Decodable { var requests: [Request] }
        let data = try send(URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/__log")!))
        return try JSONDecoder().decode(Log.self, from: data).requests
    }

    /// A blocking request through the server's control session (the loader's own queue is never waited on).
    private func send(_ request: URLRequest) throws -> Data {
        guard !lock.withLock({ stopped }) else { throw URLError(.cannotConnectToHost) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Data, Error> = .failure(URLError(.timedOut))
        server.control.dataTask(with: request) { data, _, error in
            result = data.map { .success($0) } ?? .failure(error ?? URLError(.badServerResponse))
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return try result.get()
    }
}

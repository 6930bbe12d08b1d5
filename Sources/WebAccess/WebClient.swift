import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// What a GET came back with: the status, the headers and the whole body.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: Int, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first(name: name)
    }
}

/// HTTP for photos, Flickr searches, map tiles and place names, through the environment's proxies and trust roots.
/// AsyncHTTPClient, not URLSession, for HTTP/2 (an album's photos over one connection) and a self-contained install
/// (URLSession on Linux is libcurl and its libraries); On the Map's API client alone uses URLSession (`OnTheMapClient`).
public final class WebClient: @unchecked Sendable {
    // @unchecked: `clients` is guarded by `lock`; the rest is immutable.
    public let proxies: ProxySettings
    private let configuration: HTTPClient.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let lock = NSLock()
    /// One client per way out (direct, or each proxy), made when first needed: a client's proxy is fixed.
    private var clients: [ProxySettings.Proxy?: HTTPClient] = [:]

    /// The variable naming a PEM file of certificate authorities to trust instead of the system's.
    public static let trustRootsVariable = "SSL_CERT_FILE"

    /// - parameter trustRoots: a PEM file of the certificate authorities to trust instead of the system's, or nil.
    /// - parameter eventLoopGroup: where the connections live; one event loop keeps one HTTP/2 connection per server.
    /// - parameter adjust: changes to AsyncHTTPClient's configuration (redirects, time-outs, the pool).
    public init(trustRoots: String? = nil, proxies: ProxySettings = .none,
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                adjust: (inout HTTPClient.Configuration) -> Void = { _ in }) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRoots { tls.trustRoots = .file(trustRoots) }
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        configuration.timeout = .init(connect: .seconds(10))
        configuration.httpVersion = .automatic
        // A refused connection is an answer (the server is down, or we are offline) to report at once: the pool
        // would otherwise retry it until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        adjust(&configuration)
        self.configuration = configuration
        self.proxies = proxies
        self.eventLoopGroup = eventLoopGroup
    }

    /// Trust roots and proxies as `environment` sets them (`SSL_CERT_FILE`, `https_proxy` and its kin).
    public convenience init(environment: [String: String]) {
        let trustRoots = environment[Self.trustRootsVariable].flatMap { $0.isEmpty ? nil : $0 }
        self.init(trustRoots: trustRoots, proxies: ProxySettings.fromEnvironment(environment))
    }

    /// The client for this process's environment, shared by everything that is not told otherwise.
    public static let environment = WebClient(environment: ProcessInfo.processInfo.environment)

    deinit {
        for client in clients.values { client.shutdown { _ in } }
    }

    /// The client a request to `url` goes out through, and the proxy it uses (nil: direct).
    public func client(for url: URL) -> (client: HTTPClient, proxy: ProxySettings.Proxy?) {
        let proxy = proxies.proxy(for: url)
        return lock.withLock {
            if let client = clients[proxy] { return (client, proxy) }
            var configuration = self.configuration
            if let proxy {
                switch proxy.kind {
                case .http:
                    let credentials = proxy.username.map {
                        HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                    }
                    configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: credentials)
                case .socks5:
                    configuration.proxy = .socksServer(host: proxy.host, port: proxy.port)
                }
            }
            let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
            clients[proxy] = client
            return (client, proxy)
        }
    }

    /// Sets up the client requests to `url` will go out through (its event loops and connection pool), so the
    /// first request does not wait for that. Call it off the main thread, ahead of the requests.
    public func prepare(for url: URL) {
        _ = client(for: url)
    }

    /// Closes the connections. Not waited for: requests still running end with an error.
    public func shutdown() {
        let all = lock.withLock {
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in all { client.shutdown { _ in } }
    }

    /// A GET started by `start`, which can be cancelled (its completion then gets `.cancelled`).
    public struct Transfer: Sendable {
        fileprivate let task: HTTPClient.Task<HTTPClient.Response>

        public func cancel() {
            task.cancel()
        }
    }

    /// Starts a GET of `url`, whole within `timeout` seconds, and calls `completion` on a thread of the client's
    /// when it is over. For callers that live on a queue of their own: nothing waits on Swift's executor.
    public func start(_ url: URL, headers: [(String, String)], timeout: TimeInterval, maxBytes: Int = 16 << 20,
                      completion: @escaping @Sendable (Result<WebResponse, WebFailure>) -> Void) -> Transfer? {
        let (client, proxy) = client(for: url)
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url, method: .GET, headers: HTTPHeaders(headers))
        } catch {
            completion(.failure(WebFailure(error, proxy: proxy)))
            return nil
        }
        let task = client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: maxBytes),
                                  deadline: .now() + .nanoseconds(Int64(max(0, timeout) * 1e9)))
        task.futureResult.whenComplete { result in
            completion(result.map { response in
                WebResponse(status: Int(response.status.code), headers: response.headers,
                            body: response.body.map { Data($0.readableBytesView) } ?? Data())
            }.mapError { WebFailure($0, proxy: proxy) })
        }
        return Transfer(task: task)
    }

    /// GETs `url` whole within `timeout` seconds (connecting, waiting and reading all count), cancelled with
    /// the calling task. Throws a `WebFailure` (`.timedOut` past the time-out, `.tooLarge` for a body over
    /// `maxBytes`, `.cancelled`, `.proxyFailed` naming the proxy it went through…).
    public func get(_ url: URL, headers: [(String, String)], timeout: TimeInterval,
                    maxBytes: Int = 16 << 20) async throws -> WebResponse {
        let (client, proxy) = client(for: url)
        var prepared = HTTPClientRequest(url: url.absoluteString)
        prepared.headers = HTTPHeaders(headers)
        let request = prepared
        let limit = max(0, timeout)
        do {
            return try await withThrowingTaskGroup(of: WebResponse?.self) { group in
                group.addTask {
                    let response = try await client.execute(request, timeout: .nanoseconds(Int64(limit * 1e9) + 1_000_000))
                    let body = try await response.body.collect(upTo: maxBytes)
                    return WebResponse(status: Int(response.status.code), headers: response.headers,
                                       body: Data(body.readableBytesView))
                }
                // The whole request's deadline, body included: the client's own covers it only until the head.
                group.addTask {
                    try await Task.sleep(nanoseconds: UInt64(limit * 1e9))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw HTTPClientError.deadlineExceeded
                }
                return response
            }
        } catch {
            throw WebFailure(error, proxy: proxy)
        }
    }
}

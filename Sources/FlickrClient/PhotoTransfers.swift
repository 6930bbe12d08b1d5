import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import WebAccess

/// Limits on one photo request: how long it may go without a byte, how long it may take on the wire,
/// how large its body may be. Waiting for a connection counts against none of them.
struct TransferLimits: Sendable {
    var stallTimeout: TimeInterval
    var maxBytes: Int
}

/// One photo's deadline: it starts when its first attempt goes on the wire (not while it waits behind
/// other photos for a connection) and bounds every attempt after it.
final class PhotoClock: @unchecked Sendable {
    // @unchecked: `started` is guarded by `lock`.
    private let lock = NSLock()
    private var started: UInt64?
    let timeout: TimeInterval

    init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// Starts the clock, if no attempt has yet.
    func start() {
        lock.withLock { started = started ?? DispatchTime.now().uptimeNanoseconds }
    }

    /// `DispatchTime` nanoseconds, or nil before the first attempt went on the wire.
    var deadline: UInt64? {
        lock.withLock { started.map { $0 + UInt64(max(0, timeout) * 1e9) } }
    }

    /// Seconds left (all of them before the first attempt).
    var timeLeft: TimeInterval {
        guard let deadline else { return timeout }
        return Double(Int64(deadline) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9
    }
}

/// Photo requests, all asked for at once so the pool puts them on one HTTP/2 connection or queues them for
/// HTTP/1.1 without a round trip to learn which; stalls, deadlines and oversized bodies are caught mid-body.
final class PhotoTransfers: Sendable {
    private let web: WebClient

    /// - parameter trustRoots: a PEM file of the certificate authorities to trust instead of the system's
    ///   (`SSL_CERT_FILE`), or nil.
    /// - parameter connectionsPerHost: HTTP/1.1 connections to one server at most.
    /// - parameter proxies: which requests go through which proxy.
    init(trustRoots: String?, connectionsPerHost: Int, proxies: ProxySettings = .none) {
        // One event loop, because the pool keeps one HTTP/2 connection per server and event loop.
        web = WebClient(trustRoots: trustRoots, proxies: proxies,
                        eventLoopGroup: MultiThreadedEventLoopGroup.singleton.next()) { configuration in
            // The downloader follows redirects itself, to refuse plain http off loopback.
            configuration.redirectConfiguration = .disallow
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        }
    }

    /// Closes the connections. Not waited for: requests still running end with an error.
    func invalidate() {
        web.shutdown()
    }

    /// The response to a GET of `url`, its body whole, or the reason there is none: `FlickrError.stalled`,
    /// `.timedOut` (the photo's deadline), `.photoTooLarge`, `HTTPClientError.cancelled`, or the transport's
    /// error. The stall time-out and `clock` start when the request goes on the wire.
    /// Cancelling the calling task cancels every request of `batch` (see `TransferBatch`).
    func fetch(_ url: URL, headers: [(String, String)], limits: TransferLimits,
               clock: PhotoClock, batch: TransferBatch) async throws -> WebResponse {
        let request = try HTTPClient.Request(url: url, method: .GET, headers: NIOHTTP1.HTTPHeaders(headers))
        let receiver = PhotoResponse(maxBytes: limits.maxBytes, clock: clock)
        let task = web.client(for: url).client
            .execute(request: request, delegate: receiver, eventLoop: .indifferent)
        let entry = batch.add(task, onTheWire: { receiver.isOnTheWire })
        defer { batch.remove(entry) }
        let watchdog = Task {
            if let problem = await receiver.watch(stallTimeout: limits.stallTimeout) { task.fail(reason: problem) }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await task.get()
        } onCancel: {
            batch.cancel()
        }
    }
}

/// The requests of one album's download, cancelled waiting ones first: a connection freed by cancelling one on
/// the wire could otherwise go to a waiting request before its own cancellation reaches the pool.
final class TransferBatch: @unchecked Sendable {
    // @unchecked: `requests`, `next` and `cancelled` are guarded by `lock`.
    private let lock = NSLock()
    private var requests: [Int: (task: HTTPClient.Task<WebResponse>, onTheWire: @Sendable () -> Bool)] = [:]
    private var next = 0
    private var cancelled = false

    /// Keeps `task` until `remove`; one added after the batch was cancelled is cancelled at once.
    func add(_ task: HTTPClient.Task<WebResponse>, onTheWire: @escaping @Sendable () -> Bool) -> Int {
        let (entry, late) = lock.withLock {
            next += 1
            requests[next] = (task, onTheWire)
            return (next, cancelled)
        }
        if late { task.cancel() }
        return entry
    }

    func remove(_ entry: Int) {
        lock.withLock { _ = requests.removeValue(forKey: entry) }
    }

    /// Cancels every request: the waiting ones, then those on the wire. Idempotent.
    func cancel() {
        let all = lock.withLock {
            cancelled = true
            return Array(requests.values)
        }
        let (sent, waiting) = all.reduce(into: ([HTTPClient.Task<WebResponse>](), [HTTPClient.Task<WebResponse>]())) {
            if $1.onTheWire() { $0.0.append($1.task) } else { $0.1.append($1.task) }
        }
        for task in waiting + sent { task.cancel() }
    }
}

/// One response as it arrives, and when it last made progress. AsyncHTTPClient calls the delegate
/// methods one at a time, on the request's event loop; the watchdog reads the progress under `lock`.
private final class PhotoResponse: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = WebResponse
    // @unchecked: `head` and `body` are touched only from the request's event loop, one call at a time;
    // `onTheWire` and `last` are guarded by `lock`.
    private let maxBytes: Int
    private let clock: PhotoClock
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private let lock = NSLock()
    private var onTheWire = false
    private var last = DispatchTime.now().uptimeNanoseconds

    init(maxBytes: Int, clock: PhotoClock) {
        self.maxBytes = maxBytes
        self.clock = clock
    }

    private func touch() {
        lock.withLock { last = DispatchTime.now().uptimeNanoseconds }
    }

    /// Whether the request has gone out on a connection (a waiting one has not).
    var isOnTheWire: Bool { lock.withLock { onTheWire } }

    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        clock.start()
        lock.withLock {
            onTheWire = true
            last = DispatchTime.now().uptimeNanoseconds
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        touch()
        if let announced = head.headers.first(name: "Content-Length").flatMap(Int.init), announced > maxBytes {
            return task.eventLoop.makeFailedFuture(FlickrError.photoTooLarge(limit: maxBytes))
        }
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        touch()
        guard body.readableBytes + part.readableBytes <= maxBytes else {
            return task.eventLoop.makeFailedFuture(FlickrError.photoTooLarge(limit: maxBytes))
        }
        var part = part
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw FlickrError.connectionLost }
        return WebResponse(status: Int(head.status.code), headers: head.headers, body: Data(body.readableBytesView))
    }

    /// Waits until the request is stalled or past its photo's deadline, and says which; nil once cancelled
    /// (the request ended). While it waits for a connection, neither clock runs.
    func watch(stallTimeout: TimeInterval) async -> FlickrError? {
        while true {
            // A quarter of a second is fine enough for 10-second stalls and 20-second deadlines.
            do {
                try await Task.sleep(nanoseconds: 250_000_000)
            } catch {
                return nil
            }
            let (sent, since) = lock.withLock { (onTheWire, last) }
            guard sent else { continue }
            let now = DispatchTime.now().uptimeNanoseconds
            if let deadline = clock.deadline, now >= deadline { return .timedOut }
            if Double(now &- since) / 1e9 >= stallTimeout { return .stalled }
        }
    }
}

extension FlickrError {
    /// Maps what AsyncHTTPClient, SwiftNIO or NIOSSL threw; a `FlickrError` stays as it is. Through a proxy,
    /// not reaching it, or being turned away by it, is the proxy's failure.
    static func from(clientError error: any Error, host: String, proxy: ProxySettings.Proxy? = nil) -> FlickrError {
        if let flickrError = error as? FlickrError { return flickrError }
        switch WebFailure(error, proxy: proxy) {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .hostNotFound: return .hostNotFound(host: host)
        case .cannotConnect: return .cannotConnect(host: host)
        case .offline: return .offline
        case .secureConnectionFailed: return .secureConnectionFailed(host: host)
        case .invalidAddress: return .invalidEndpoint(host)
        case .proxyFailed(let proxy): return .proxyFailed(proxy: proxy.description)
        case .tooLarge, .connectionLost: return .connectionLost
        }
    }
}

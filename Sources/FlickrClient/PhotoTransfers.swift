import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Limits on one photo request: how long it may go without a byte, when it must be done, how
/// large its body may be.
struct TransferLimits: Sendable {
    var stallTimeout: TimeInterval
    /// Absolute deadline (`DispatchTime` nanoseconds).
    var deadline: UInt64
    var maxBytes: Int
}

/// What one photo request came back with.
struct TransferResponse: Sendable {
    var status: Int
    var headers: NIOHTTP1.HTTPHeaders
    var body: Data
    /// Whether it came over HTTP/2 (one connection carries every request to its server).
    var overHTTP2: Bool

    func header(_ name: String) -> String? {
        headers.first(name: name)
    }
}

/// Photo requests through AsyncHTTPClient (SwiftNIO): HTTP/2 where the server offers it (a CDN does),
/// so an album's photos share one multiplexed connection, and HTTP/1.1 keep-alive connections otherwise.
/// A stalled server, a missed deadline or an oversized body is noticed while it happens, before a body
/// is read whole.
///
/// Not URLSession: on Linux it drives libcurl through dispatch sources and spent ~270 ms of CPU on 30
/// small photos from a local server where this spends ~25 ms; on a 2-core machine that CPU came out of
/// the album's own downloads, decodes and frames.
final class PhotoTransfers: Sendable {
    private let client: HTTPClient

    /// - parameter trustRoots: a PEM file of the certificate authorities to trust instead of the system's
    ///   (`SSL_CERT_FILE`), or nil.
    /// - parameter connectionsPerHost: HTTP/1.1 connections to one server at most.
    init(trustRoots: String?, connectionsPerHost: Int) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustRoots { tls.trustRoots = .file(trustRoots) }
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        // A redirect is followed by the downloader, which checks where it goes (no plain http off loopback).
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(10))
        // Our retries decide, with their back-off and the photo's deadline; the pool would retry a refused
        // connection until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        configuration.httpVersion = .automatic
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the connections. Not waited for: requests still running end with an error.
    func invalidate() {
        let client = self.client
        Task { try? await client.shutdown() }
    }

    /// The response to a GET of `url`, its body whole, or the reason there is none: `FlickrError.stalled`,
    /// `.timedOut` (deadline), `.photoTooLarge`, `CancellationError`, or the transport's error.
    func fetch(_ url: URL, headers: [(String, String)], limits: TransferLimits) async throws -> TransferResponse {
        let progress = TransferProgress()
        return try await withThrowingTaskGroup(of: TransferResponse?.self) { group in
            group.addTask { try await self.transfer(url, headers: headers, limits: limits, progress: progress) }
            group.addTask {
                try await progress.watch(limits)
                return nil
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                if let response = outcome { return response }
            }
            throw CancellationError()
        }
    }

    private func transfer(_ url: URL, headers: [(String, String)], limits: TransferLimits,
                          progress: TransferProgress) async throws -> TransferResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, deadline: .uptimeNanoseconds(limits.deadline))
        progress.touch()
        if let announced = response.headers.first(name: "Content-Length").flatMap(Int.init), announced > limits.maxBytes {
            throw FlickrError.photoTooLarge(limit: limits.maxBytes)
        }
        var body = ByteBuffer()
        for try await chunk in response.body {
            progress.touch()
            guard body.readableBytes + chunk.readableBytes <= limits.maxBytes else {
                throw FlickrError.photoTooLarge(limit: limits.maxBytes)
            }
            var chunk = chunk
            body.writeBuffer(&chunk)
        }
        return TransferResponse(status: Int(response.status.code), headers: response.headers,
                                body: Data(body.readableBytesView), overHTTP2: response.version.major == 2)
    }
}

/// When a request last made progress, watched against its stall time-out and deadline.
private final class TransferProgress: @unchecked Sendable {
    // @unchecked: `last` is guarded by `lock`.
    private let lock = NSLock()
    private var last = DispatchTime.now().uptimeNanoseconds

    func touch() {
        lock.withLock { last = DispatchTime.now().uptimeNanoseconds }
    }

    /// Returns only by throwing: `.timedOut`, `.stalled`, or the cancellation that ended the request.
    func watch(_ limits: TransferLimits) async throws {
        while true {
            // A quarter of a second is fine enough for 10-second stalls and 20-second deadlines.
            try await Task.sleep(nanoseconds: 250_000_000)
            let now = DispatchTime.now().uptimeNanoseconds
            let idle = Double(now &- lock.withLock { last }) / 1e9
            if now >= limits.deadline { throw FlickrError.timedOut }
            if idle >= limits.stallTimeout { throw FlickrError.stalled }
        }
    }
}

extension FlickrError {
    /// Maps what AsyncHTTPClient, SwiftNIO or NIOSSL threw (and anything else through `from(transportError:)`).
    static func from(clientError error: any Error, host: String) -> FlickrError {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .cancelled: return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
                 .getConnectionFromPoolTimeout:
                return .timedOut
            case .invalidURL, .emptyHost, .emptyScheme: return .invalidEndpoint(host)
            default: return .connectionLost
            }
        case let error as NIOConnectionError:
            let nameFailed = error.dnsAError != nil || error.dnsAAAAError != nil
            return nameFailed && error.connectionErrors.isEmpty ? .hostNotFound(host: host) : .cannotConnect(host: host)
        case is SocketAddressError:
            return .hostNotFound(host: host)
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT: return .cannotConnect(host: host)
            case ENETUNREACH, ENETDOWN: return .offline
            default: return .connectionLost
            }
        case ChannelError.connectTimeout:
            return .timedOut
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return .secureConnectionFailed(host: host)
        default:
            return from(transportError: error, host: host)
        }
    }
}

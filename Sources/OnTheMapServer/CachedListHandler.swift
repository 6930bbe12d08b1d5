import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Answers `GET /v1/StudentLocation` on the event loop, before the request reaches Hummingbird, with the same
/// `LocationLists` the route uses. It sits right after NIO's HTTP/1 parser (`ListFastPathChannel`), before
/// the conversion to HTTPTypes.
///
/// Why it exists: lists are most of the traffic and are served from one shared ByteBuffer, yet Hummingbird's
/// per-request path (a task per connection, hops to the concurrency pool, the router, middleware) caps a
/// 2-core machine at about 9k requests/s even for a 404; and converting each request to HTTPTypes parses its
/// path with URLComponents, a tenth of what a cached list costs. Here a list costs little more than nginx's
/// static file.
///
/// It only repeats the route's answer (same bytes and headers, same access log line and metrics) and decides nothing
/// itself: any other route or method, a request body, a `Connection` header, a query the route refuses (its
/// 400), or a request behind one Hummingbird is still answering (responses keep the requests' order) goes on
/// to Hummingbird untouched; so does anything but HTTP/1.1 (1.0's connection rules are the router's). When
/// the list is not encoded for the current revision, it waits for `LocationLists` as the route would, reading
/// no more from the connection meanwhile; if that fails, the request goes on to Hummingbird, whose route
/// answers the error.
final class CachedListHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let path = "/v1/StudentLocation"

    private let lists: LocationLists
    private let serverName: String
    private let logger: Logger
    private let metrics: ServerMetrics

    private enum Current {
        case idle
        /// Passing this request's parts on to Hummingbird.
        case routed
        /// A list request to answer at its end; `start` is for the access log.
        case list(HTTPRequestHead, LocationQuery, start: ContinuousClock.Instant)
        /// Waiting for the list to be encoded; parts that arrive meanwhile are `held`.
        case encoding(HTTPRequestHead, start: ContinuousClock.Instant)
    }

    private var current = Current.idle
    /// Requests passed on to Hummingbird whose response has not ended yet.
    private var routedInFlight = 0
    /// Pipelined parts that arrived while `encoding`, replayed in order afterwards.
    private var held: [HTTPServerRequestPart] = []
    /// A read the channel asked for while `encoding`, issued afterwards.
    private var readDeferred = false
    /// The last path asked for on this connection and its query (nil: not a list query the route accepts).
    /// Clients repeat the same request, and parsing it was a tenth of this handler's time.
    private var lastQuery: (path: String, query: LocationQuery?)?
    /// The last response head, valid for one second (its `Date`) and one body length.
    private var lastHead: (second: Int, length: Int, head: HTTPResponseHead)?

    init(lists: LocationLists, serverName: String, logger: Logger, metrics: ServerMetrics) {
        self.lists = lists
        self.serverName = serverName
        self.logger = logger
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (part, current) {
        case (_, .encoding):
            held.append(part)
            return
        case (.head(let head), _):
            if routedInFlight == 0, let query = listQuery(head) {
                current = .list(head, query, start: .now)
                return
            }
            current = .routed
            routedInFlight += 1
        case (.end, .list(let head, let query, let start)):
            if let body = lists.readyBody(for: query) {
                current = .idle
                answer(context: context, body: body, start: start)
            } else {
                encode(context: context, head: head, query: query, start: start)
            }
            return
        case (.body, .list):
            return // not sent: only requests without a body are list requests here
        case (.end, _):
            current = .idle
        case (.body, _):
            break
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if case .encoding = current {
            readDeferred = true
        } else {
            context.read()
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routedInFlight = max(0, routedInFlight - 1) }
        context.write(data, promise: promise)
    }

    /// The query if this is a list request the route would answer; nil otherwise.
    private func listQuery(_ head: HTTPRequestHead) -> LocationQuery? {
        let path = head.uri
        guard head.method == .GET, head.version == .http1_1, path.hasPrefix(Self.path),
              head.headers.first(name: "content-length") ?? "0" == "0", !head.headers.contains(name: "transfer-encoding"),
              !head.headers.contains(name: "connection") else { return nil }
        if let lastQuery, lastQuery.path == path { return lastQuery.query }
        let uri = URI(path)
        let query = uri.path == Self.path ? try? LocationRoutes.listQuery(uri) : nil
        lastQuery = (path, query)
        return query
    }

    private func encode(context: ChannelHandlerContext, head: HTTPRequestHead, query: LocationQuery,
                        start: ContinuousClock.Instant) {
        current = .encoding(head, start: start)
        let lists = lists
        context.eventLoop.makeFutureWithTask { try await lists.body(for: query) }
            .assumeIsolated().whenComplete { result in
                guard context.channel.isActive else { return }
                self.current = .idle
                switch result {
                case .success(let body):
                    self.answer(context: context, body: body, start: start)
                case .failure:
                    self.routedInFlight += 1
                    context.fireChannelRead(self.wrapInboundOut(.head(head)))
                    context.fireChannelRead(self.wrapInboundOut(.end(nil)))
                }
                let parts = self.held
                self.held = []
                for part in parts { self.channelRead(context: context, data: self.wrapInboundOut(part)) }
                context.fireChannelReadComplete()
                if self.readDeferred, !self.isEncoding {
                    self.readDeferred = false
                    context.read()
                }
            }
    }

    private var isEncoding: Bool {
        if case .encoding = current { return true }
        return false
    }

    private func answer(context: ChannelHandlerContext, body: ByteBuffer, start: ContinuousClock.Instant) {
        context.write(wrapOutboundOut(.head(responseHead(for: body))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        metrics.listAnswered.count.increment()
        metrics.listAnswered.duration.record(duration: .now - start)
        if logger.logLevel <= .info {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            AccessLog.record(logger, method: .get, path: Self.path, status: .ok, since: start)
        }
    }

    /// The route's head (`APIResponse.buffer`) plus what Hummingbird adds, `Date` and `Server`, converted to
    /// HTTP/1 as the HTTPTypes codec converts the router's.
    private func responseHead(for body: ByteBuffer) -> HTTPResponseHead {
        let now = time(nil)
        if let lastHead, lastHead.second == now, lastHead.length == body.readableBytes { return lastHead.head }
        var response = APIResponse.buffer(body)
        response.headers[.date] = Self.httpDate(now)
        response.headers[.server] = serverName
        let head = HTTPResponseHead(response.head)
        lastHead = (now, body.readableBytes, head)
        return head
    }

    /// RFC 9110's IMF-fixdate, as Hummingbird writes it: `Mon, 23 Nov 2026 09:39:15 GMT`.
    static func httpDate(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}

import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel (`HTTP1Channel`) with `CachedListHandler` placed between NIO's HTTP/1
/// parser and the conversion to HTTPTypes, where Hummingbird's `additionalChannelHandlers` cannot go: list
/// requests are answered there, everything else continues exactly as through `HTTP1Channel`.
struct ListFastPathChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let makeListHandler: @Sendable () -> CachedListHandler
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            // First, so a connection that sends and receives nothing is closed whichever path its requests took.
            try pipeline.addHandler(IdleStateHandler(allTimeout: idleTimeout))
            try pipeline.addHandler(IdleConnectionCloser())
            // As HTTP1Channel configures it: pipelining is handled by the async channel, errors by Hummingbird,
            // and HTTPTypes validates outbound headers.
            try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                     withOutboundHeaderValidation: false,
                                                     withEncoderConfiguration: .init(),
                                                     withDecoderLimitConfiguration: .init())
            try pipeline.addHandler(makeListHandler())
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel,
                                       configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

/// Closes a connection `IdleStateHandler` finds idle: a keep-alive socket nobody uses holds a descriptor, and enough
/// of them starve the server.
final class IdleConnectionCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        context.close(promise: nil)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with lists answered by `CachedListHandler`, idle connections closed after `idleTimeout`.
    static func http1(listHandler: @escaping @Sendable () -> CachedListHandler, idleTimeout: TimeAmount) -> HTTPServerBuilder {
        .init { responder in ListFastPathChannel(responder: responder, makeListHandler: listHandler, idleTimeout: idleTimeout) }
    }
}

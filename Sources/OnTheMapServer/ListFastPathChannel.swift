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

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
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

extension HTTPServerBuilder {
    /// HTTP/1 with lists answered by `CachedListHandler`.
    static func http1(listHandler: @escaping @Sendable () -> CachedListHandler) -> HTTPServerBuilder {
        .init { responder in ListFastPathChannel(responder: responder, makeListHandler: listHandler) }
    }
}

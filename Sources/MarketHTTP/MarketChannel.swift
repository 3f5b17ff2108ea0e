import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Each connection's pipeline: SwiftNIO's HTTP/1.1 parser and encoder with its pipelining handler
/// (one request at a time goes past it, the next only once the answer before has ended),
/// Hummingbird's connection state handler (the idle timeout, a graceful close), then `handlers`
/// (the connection cap, the front desk, `100 Continue`), then Hummingbird's router. It is
/// Hummingbird's own HTTP/1 channel but for the pipelining handler, which lets the desk answer on
/// the event loop in turn, and for the state handler coming first, so that it sees every request
/// and answer, the desk's too.
struct MarketChannel: HTTPChannelHandler {
    let responder: Responder
    let idleTimeout: Duration
    let handlers: @Sendable () -> [any RemovableChannelHandler]

    func setup(
        channel: any Channel, logger: Logger
    ) -> EventLoopFuture<NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>> {
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: true, withErrorHandling: false, withOutboundHeaderValidation: false)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            try pipeline.addHandlers(handlers())
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

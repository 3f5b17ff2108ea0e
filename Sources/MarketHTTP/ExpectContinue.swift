import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the head arrives, as HTTP/1.1
/// asks. curl sends it with every body over 1 MB (a create with photos) and otherwise waits a whole
/// second before sending the body. Refusals that need no body still come before it is read: the
/// route answers them without asking for the body, and the client stops sending.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), head.headerFields[.expect]?.lowercased() == "100-continue" {
            head.headerFields[.expect] = nil
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            return context.fireChannelRead(wrapInboundOut(.head(head)))
        }
        context.fireChannelRead(data)
    }
}

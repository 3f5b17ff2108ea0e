import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` once the request's turn has come, as HTTP/1.1
/// asks: Hummingbird has no place for interim responses. curl sends it with every body over 1 MB (a
/// create with photos) and otherwise waits a whole second before sending the body. Refusals that
/// need no body still come before it is read: the route answers them without asking for the body,
/// and the client stops sending. The go-ahead of a request pipelined behind others waits until the
/// responses before it have ended, so that interim responses keep the requests' order too.
final class ExpectContinue: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The requests whose responses have not ended yet, oldest first: whether each still waits for
    /// its go-ahead.
    private var unanswered: [Bool] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        let expects = head.headerFields[.expect]?.lowercased() == "100-continue"
        unanswered.append(expects)
        guard expects else { return context.fireChannelRead(data) }
        if unanswered.count == 1 { goAhead(context: context) }
        head.headerFields[.expect] = nil
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data), !unanswered.isEmpty else { return }
        unanswered.removeFirst()
        if unanswered.first == true { goAhead(context: context) }
    }

    private func goAhead(context: ChannelHandlerContext) {
        unanswered[0] = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }
}

import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection that has not sent a whole request head within `timeout` of opening or of
/// its last answer, so slow or silent clients cannot hold the server's connections. It sits
/// nearer the socket than the front desk, so it counts the desk's answers as well as the router's,
/// and the desk's wire (nearer still) tells it of its own: a connection busy with answers the desk
/// gives is not idle.
final class IdleConnection: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var lastActive = NIODeadline.now()
    private var unanswered = 0
    private var readingRequest = false
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(at: .now() + timeout, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(at: .now() + timeout, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            unanswered += 1
        case .body: break
        case .end: readingRequest = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered -= 1
            if unanswered == 0 {
                lastActive = .now()
                schedule(at: lastActive + timeout, context: context)
            }
        }
        context.write(data, promise: promise)
    }

    /// The desk's wire answered a request this handler never saw.
    func desksAnswer() {
        lastActive = .now()
    }

    private func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        guard check == nil else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.check = nil
            handler.checkIdle(context: context)
        }
    }

    private func checkIdle(context: ChannelHandlerContext) {
        // Still answering a whole request: the answer's end looks again.
        if !readingRequest, unanswered > 0 { return }
        if NIODeadline.now() >= lastActive + timeout { return context.close(promise: nil) }
        schedule(at: lastActive + timeout, context: context)
    }
}

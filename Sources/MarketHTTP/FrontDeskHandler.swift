import HTTPTypes
import MarketHTTPShared
import NIOCore
import NIOHTTPTypes

/// The front desk on one connection, after SwiftNIO's HTTP parser and its pipelining handler: that
/// handler passes on one request at a time and reads nothing more until its answer has gone, so
/// answers leave in the order the requests came whoever gives them. The desk answers a request
/// only while the client is reading (the channel is writable); until then it holds it, and with it
/// the connection, exactly as the router's writer waits.
final class FrontDeskHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private struct Request {
        var head: HTTPRequest
        var plan: FrontDesk.Plan
        var started: ContinuousClock.Instant
    }

    private let desk: FrontDesk
    /// A request the desk may answer, whose end has not come yet.
    private var pending: Request?
    /// A whole request the desk is to answer next.
    private var next: Request?
    /// The desk is giving an answer now; a request that arrives meanwhile (the pipelining handler
    /// passes the next one on as soon as an answer's end is written) waits in `next` for it.
    private var answering = false
    /// The desk owes an answer it cannot give yet: it waits for a read, or for the client to read.
    private var waiting = false
    private var closeWanted: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(desk: FrontDesk) {
        self.desk = desk
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            guard let plan = desk.plan(for: head) else { return context.fireChannelRead(data) }
            pending = Request(head: head, plan: plan, started: .now)
        case .body:
            // A GET with a body after all: the router's.
            if let request = pending {
                pending = nil
                context.fireChannelRead(wrapInboundOut(.head(request.head)))
            }
            context.fireChannelRead(data)
        case .end:
            guard let request = pending else { return context.fireChannelRead(data) }
            pending = nil
            next = request
            answerNext(context: context)
        }
    }

    /// Answers the next request, and the one the pipelining handler passes on when that answer's
    /// end is written, and so on: a loop rather than a recursion as deep as the requests pipelined.
    private func answerNext(context: ChannelHandlerContext) {
        guard !answering, !waiting else { return }
        answering = true
        defer { answering = false }
        while !waiting, let request = next {
            guard context.channel.isWritable else { return waiting = true }
            next = nil
            switch desk.next(for: request.head, request.plan) {
            case .answer(let answer): give(answer, to: request, context: context)
            case .router: toRouter(request.head, context: context)
            case .later(let answer):
                waiting = true
                let loop = context.eventLoop
                let bound = NIOLoopBound((self, context), eventLoop: loop)
                Task(executorPreference: LoopExecutor.on(loop)) {
                    let answer = await answer()
                    loop.execute {
                        let (handler, context) = bound.value
                        handler.answered(request, with: answer, context: context)
                    }
                }
            }
        }
    }

    /// The desk's answer once it came, or the router's when it did not.
    private func answered(_ request: Request, with answer: FrontDesk.Answer?, context: ChannelHandlerContext) {
        waiting = false
        if context.channel.isActive {
            if let answer {
                give(answer, to: request, context: context)
            } else {
                toRouter(request.head, context: context)
            }
        }
        if let close = closeWanted, !waiting {
            closeWanted = nil
            return context.close(mode: close.mode, promise: close.promise)
        }
        answerNext(context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, waiting, next != nil {
            waiting = false
            answerNext(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func give(_ answer: FrontDesk.Answer, to request: Request, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.response)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        desk.answered(request.head, answer.response.status, route: answer.route, since: request.started)
    }

    /// A whole bodiless request for the router.
    private func toRouter(_ head: HTTPRequest, context: ChannelHandlerContext) {
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.fireChannelRead(wrapInboundOut(.end(nil)))
        context.fireChannelReadComplete()
    }

    /// Nothing closes while the desk reads for an answer it owes (a client that stopped reading is
    /// owed nothing more).
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard waiting, next == nil, context.channel.isActive else { return context.close(mode: mode, promise: promise) }
        closeWanted = (mode, promise)
    }
}

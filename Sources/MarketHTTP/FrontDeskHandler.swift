import Foundation
import HTTPTypes
import MarketHTTPShared
import NIOCore
import NIOHTTPTypes

/// The front desk on one connection. It answers a request only when the router has nothing of
/// this connection's in hand, so answers leave in the order the requests came; while it waits for
/// the catalogue's version it holds what else arrives, and reads nothing more.
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
    /// A request with the router: the key its answer may be kept under, and the `If-None-Match` the
    /// desk took off it, so that the router answers in full and the desk can keep the answer.
    private struct Forwarded {
        var key: DeskKey?
        var asked: String?
    }

    /// The requests with the router, oldest first.
    private var withRouter: [Forwarded] = []
    /// The router's answer goes out as 304: its body is dropped.
    private var dropsBody = false
    /// The router's answer being copied for the desk.
    private var copying: (key: String, answer: AnswerCache.Answer)?
    /// What arrived while the desk waited for the version; nil while it waits for nothing.
    private var held: [HTTPRequestPart]?
    private var postponed = Postponed()

    private let gate: ConnectionGate
    private let idle: IdleConnection
    /// Answers given to the requests that came through the parser.
    private var answered = 0

    init(desk: FrontDesk, gate: ConnectionGate, idle: IdleConnection) {
        self.desk = desk
        self.gate = gate
        self.idle = idle
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard gate.admitted else { return }
        let wire = FrontDeskWire(desk: desk, answers: self, idle: idle)
        try? context.pipeline.syncOperations.addHandler(wire, position: .first)
    }

    /// Whether every one of the first `requests` to come through the parser has had its answer.
    func answeredAll(_ requests: Int) -> Bool { answered == requests }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if held != nil { return held!.append(part) }
        take(part, context: context)
    }

    private func take(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            if withRouter.isEmpty, let plan = desk.plan(for: head) {
                pending = Request(head: head, plan: plan, started: .now)
            } else {
                toRouter(head, keepingAs: nil, context: context)
            }
        case .body:
            // A GET with a body after all: the router's.
            if let request = pending {
                pending = nil
                toRouter(request.head, keepingAs: nil, context: context)
            }
            context.fireChannelRead(wrapInboundOut(part))
        case .end:
            guard let request = pending else { return context.fireChannelRead(wrapInboundOut(part)) }
            pending = nil
            answer(request, context: context)
        }
    }

    private func answer(_ request: Request, context: ChannelHandlerContext) {
        switch desk.next(for: request.head, request.plan) {
        case .answer(let answer): give(answer, to: request, context: context)
        case .router(let key): toRouterWhole(request.head, keepingAs: key, context: context)
        case .later(let start):
            held = []
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            start(loop) { answer in
                loop.execute {
                    let (handler, context) = bound.value
                    handler.answer(request, with: answer, context: context)
                }
            }
        }
    }

    /// The desk's answer once it came, or the router's; then what arrived meanwhile.
    private func answer(_ request: Request, with answer: FrontDesk.Answer?, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return held = nil }
        if let answer {
            give(answer, to: request, context: context)
        } else {
            toRouterWhole(request.head, keepingAs: request.plan.key, context: context)
        }
        let parts = held ?? []
        held = nil
        for part in parts {
            if held != nil { held!.append(part) } else { take(part, context: context) }
        }
        context.fireChannelReadComplete()
        guard held == nil else { return }
        postponed.resume(context: context)
    }

    private func give(_ answer: FrontDesk.Answer, to request: Request, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.response)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        answered += 1
        desk.answered(request.head, answer.response.status, route: answer.route, since: request.started)
    }

    private func toRouter(_ head: HTTPRequest, keepingAs key: DeskKey?, context: ChannelHandlerContext) {
        var head = head
        let asked = key == nil ? nil : head.headerFields[.ifNoneMatch]
        if asked != nil { head.headerFields[.ifNoneMatch] = nil }
        head.headerFields[AnswerCache.deskKeeps] = key == nil ? nil : "1"
        withRouter.append(Forwarded(key: key, asked: asked))
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// A whole bodiless request for the router, outside the read that brought it.
    private func toRouterWhole(_ head: HTTPRequest, keepingAs key: DeskKey?, context: ChannelHandlerContext) {
        toRouter(head, keepingAs: key, context: context)
        context.fireChannelRead(wrapInboundOut(.end(nil)))
    }

    // MARK: The router's answers

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let forwarded = withRouter.first
            if let mark = head.headerFields[AnswerCache.deskHeader] {
                head.headerFields[AnswerCache.deskHeader] = nil
                copying = desk.copy(of: head, marked: mark, as: forwarded?.key)
            }
            if head.status == .ok, let unchanged = AnswerCache.unchanged(head.headerFields, asked: forwarded?.asked) {
                head = HTTPResponse(status: .notModified, headerFields: unchanged)
                dropsBody = true
            }
            return context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(var body):
            // Most answers are one buffer, often the very one the router keeps: shared, not copied.
            if copying?.answer.body.readableBytes == 0 {
                copying?.answer.body = body
            } else {
                copying?.answer.body.writeBuffer(&body)
            }
            if dropsBody { return promise?.succeed(()) ?? () }
        case .end:
            answered += 1
            dropsBody = false
            if let copying { desk.answers.keep(copying.answer, for: copying.key) }
            copying = nil
            if !withRouter.isEmpty { withRouter.removeFirst() }
        }
        context.write(data, promise: promise)
    }

    func read(context: ChannelHandlerContext) {
        guard held == nil else { return postponed.read() }
        context.read()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard held == nil else { return postponed.close(mode: mode, promise: promise) }
        context.close(mode: mode, promise: promise)
    }
}

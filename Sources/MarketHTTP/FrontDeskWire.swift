import HTTPTypes
import NIOCore

/// The front desk nearest the socket. It reads the heads of plain GETs from the connection's bytes
/// itself (`WireRequest`) and, when the desk may give their answer, writes the answer's bytes
/// straight to the socket: SwiftNIO's HTTP/1 parser, its encoder and the conversions between them
/// were half of what a kept answer cost. Every other request goes on to the parser as it came,
/// one whole request at a time, and the wire answers nothing while any of those is unanswered,
/// so answers leave in the order the requests came. Once it meets a request it cannot delimit (one
/// with a body, an upgrade, HTTP/1.0, anything odd) it hands the parser the rest of the connection.
/// While it waits for the catalogue's version (PostgreSQL) it holds what else arrives, reads
/// nothing more, and closes only once it has answered.
final class FrontDeskWire: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let desk: FrontDesk
    /// Counts the answers to the requests the wire passed on.
    private let answers: FrontDeskHandler
    private let idle: IdleConnection
    /// The start of a head whose end has not come yet, or what came while the wire waited.
    private var unread: ByteBuffer?
    private var passedOn = 0
    private var parserOnly = false
    private var waiting = false
    private var postponed = Postponed()

    init(desk: FrontDesk, answers: FrontDeskHandler, idle: IdleConnection) {
        self.desk = desk
        self.answers = answers
        self.idle = idle
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !parserOnly else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        if var unread {
            self.unread = nil
            unread.writeBuffer(&bytes)
            bytes = unread
        }
        if waiting { return unread = bytes }
        take(bytes, context: context)
    }

    /// Answers or passes on each whole request at the start of `bytes`, and keeps the rest.
    private func take(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        var bytes = bytes
        while bytes.readableBytes > 0 {
            let started = ContinuousClock.now
            switch bytes.withUnsafeReadableBytes({ WireRequest(reading: $0) }) {
            case .partial:
                unread = bytes
                return
            case .unsure:
                parserOnly = true
                return context.fireChannelRead(wrapInboundOut(bytes))
            case .whole(let length, let plain):
                let request = bytes.readSlice(length: length)!
                guard answers.answeredAll(passedOn), let plain, let plan = desk.plan(for: plain) else {
                    passOn(request, context: context)
                    continue
                }
                if case .image(let key) = plan,
                    let answer = desk.imageOnWire(key, for: plain, allocator: context.channel.allocator)
                {
                    context.writeAndFlush(wrapOutboundOut(.byteBuffer(answer)), promise: nil)
                    answered(plain, .ok, route: FrontDesk.imageRoute, since: started)
                    continue
                }
                switch desk.next(for: plain, plan) {
                case .answer(let answer): give(answer, to: plain, or: request, since: started, context: context)
                case .router: passOn(request, context: context)
                case .later(let start):
                    if bytes.readableBytes > 0 { unread = bytes }
                    return wait(for: start, head: plain, or: request, since: started, context: context)
                }
            }
        }
    }

    /// Holds what arrives until the desk's answer comes (or the router must answer), then gives it.
    private func wait(
        for start: @Sendable (any EventLoop, @escaping FrontDesk.Delivery) -> Void, head: HTTPRequest,
        or request: ByteBuffer,
        since started: ContinuousClock.Instant, context: ChannelHandlerContext
    ) {
        waiting = true
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        start(loop) { answer in
            loop.execute {
                let (wire, context) = bound.value
                wire.waiting = false
                guard context.channel.isActive else { return }
                if let answer {
                    wire.give(answer, to: head, or: request, since: started, context: context)
                } else {
                    wire.passOn(request, context: context)
                }
                wire.resume(context: context)
            }
        }
    }

    /// Takes what came meanwhile, and reads or closes as was asked meanwhile.
    private func resume(context: ChannelHandlerContext) {
        if let bytes = unread {
            unread = nil
            take(bytes, context: context)
        }
        context.fireChannelReadComplete()
        guard !waiting else { return }
        postponed.resume(context: context)
    }

    private func passOn(_ request: ByteBuffer, context: ChannelHandlerContext) {
        passedOn += 1
        context.fireChannelRead(wrapInboundOut(request))
    }

    /// Writes the answer when SwiftNIO's encoder would have written it as it is; otherwise the
    /// request goes to the parser.
    private func give(
        _ answer: FrontDesk.Answer, to head: HTTPRequest, or request: ByteBuffer,
        since started: ContinuousClock.Instant,
        context: ChannelHandlerContext
    ) {
        guard answer.framed else { return passOn(request, context: context) }
        write(answer.response, answer.body, context: context)
        answered(head, answer.response.status, route: answer.route, since: started)
    }

    private func answered(
        _ head: HTTPRequest, _ status: HTTPResponse.Status, route: String, since started: ContinuousClock.Instant
    ) {
        desk.answered(head, status, route: route, since: started)
        idle.desksAnswer()
    }

    /// The bytes SwiftNIO's encoder would write for an answer with a length, or a 304.
    private func write(_ response: HTTPResponse, _ body: ByteBuffer?, context: ChannelHandlerContext) {
        var head = context.channel.allocator.buffer(capacity: 512)
        Self.write(response, to: &head)
        guard let body, response.status != .notModified else {
            return context.writeAndFlush(wrapOutboundOut(.byteBuffer(head)), promise: nil)
        }
        context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(body)), promise: nil)
    }

    /// Writes the head SwiftNIO's encoder would write for `response`; returns where the value of its
    /// `Date` field starts, if it has one.
    @discardableResult
    static func write(_ response: HTTPResponse, to head: inout ByteBuffer) -> Int? {
        head.writeString("HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n")
        let bodiless = response.status == .notModified
        var date: Int?
        for field in response.headerFields
        where !bodiless || (field.name != .contentLength && field.name != .transferEncoding) {
            head.writeString(field.name.rawName)
            head.writeStaticString(": ")
            if field.name == .date { date = head.writerIndex }
            head.writeString(field.value)
            head.writeStaticString("\r\n")
        }
        head.writeStaticString("\r\n")
        return date
    }

    func read(context: ChannelHandlerContext) {
        guard !waiting else { return postponed.read() }
        context.read()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard !waiting else { return postponed.close(mode: mode, promise: promise) }
        context.close(mode: mode, promise: promise)
    }
}

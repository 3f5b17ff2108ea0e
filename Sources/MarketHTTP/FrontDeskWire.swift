import HTTPTypes
import NIOCore

/// The front desk nearest the socket. It reads the heads of plain GETs from the connection's bytes
/// itself (`WireRequest`) and, when the desk has their answer at hand, writes the answer's bytes
/// straight to the socket: SwiftNIO's HTTP/1 parser, its encoder and the conversions between them
/// were half of what a kept answer cost. Every other request goes on to the parser as it came,
/// one whole request at a time, and the wire answers nothing while any of those is unanswered,
/// so answers leave in the order the requests came. Once it meets a request it cannot delimit (one
/// with a body, an upgrade, HTTP/1.0, anything odd) it hands the parser the rest of the connection.
final class FrontDeskWire: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = IOData

    private let desk: FrontDesk
    /// Counts the answers to the requests the wire passed on.
    private let answers: FrontDeskHandler
    private let idle: IdleConnection
    /// The start of a head whose end has not come yet.
    private var unread: ByteBuffer?
    private var passedOn = 0
    private var parserOnly = false

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
                if answers.answeredAll(passedOn), let plain, let answer = desk.answerAtHand(for: plain) {
                    write(answer.response, answer.body, context: context)
                    desk.answered(plain, answer.response.status, route: answer.route, since: started)
                    idle.desksAnswer()
                } else {
                    passedOn += 1
                    context.fireChannelRead(wrapInboundOut(request))
                }
            }
        }
    }

    /// The bytes SwiftNIO's encoder would write for an answer with a length, or a 304.
    private func write(_ response: HTTPResponse, _ body: ByteBuffer?, context: ChannelHandlerContext) {
        var head = context.channel.allocator.buffer(capacity: 512)
        head.writeString("HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n")
        let bodiless = response.status == .notModified
        for field in response.headerFields
        where !bodiless || (field.name != .contentLength && field.name != .transferEncoding) {
            head.writeString(field.name.rawName)
            head.writeStaticString(": ")
            head.writeString(field.value)
            head.writeStaticString("\r\n")
        }
        head.writeStaticString("\r\n")
        guard let body, !bodiless else {
            return context.writeAndFlush(wrapOutboundOut(.byteBuffer(head)), promise: nil)
        }
        context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(body)), promise: nil)
    }
}

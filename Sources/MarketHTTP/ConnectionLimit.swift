import HTTPTypes
import MarketHTTPShared
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How many connections the server keeps open at most. One more is still accepted, but its first
/// request is answered 503 with Retry-After and the connection closed: a client learns at once
/// that the market is full, instead of waiting in the listen queue until it gives up.
public final class ConnectionLimit: Sendable {
    public let maximum: Int
    private let count = Atomic<Int>(0)

    public init(maximum: Int) {
        self.maximum = maximum
    }

    /// Connections open now, refused ones included until they close.
    public var open: Int { count.load(ordering: .relaxed) }

    /// Counts a new connection; false when it is one too many.
    func admit() -> Bool {
        count.wrappingAdd(1, ordering: .relaxed).newValue <= maximum
    }

    func release() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }

    /// The handler each connection's pipeline gets.
    func gate() -> ConnectionGate { ConnectionGate(limit: self) }
}

final class ConnectionGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let refusal = ByteBuffer(
        string: #"{"error":true,"reason":"the market has too many open connections just now; try again in a moment"}"#)

    let limit: ConnectionLimit
    private(set) var admitted = true
    private var counted = false

    init(limit: ConnectionLimit) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        admitted = limit.admit()
        counted = true
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted { limit.release() }
        counted = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !admitted else { return context.fireChannelRead(data) }
        guard case .head = unwrapInboundIn(data) else { return }
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(Self.refusal.readableBytes),
                .retryAfter: "1", .xContentTypeOptions: "nosniff",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(Self.refusal)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
    }
}

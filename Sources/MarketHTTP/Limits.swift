import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import NIOCore
import NIOHTTPTypes
import Synchronization

/// What one server lets its clients hold: connections, request bodies in memory, and time to send
/// a request head; and the memory it keeps responses in.
public struct ServerLimits: Sendable {
    public var connections: ConnectionLimit
    public var bodies: BodyBudget
    public var idleTimeout: Duration
    public var responseCacheBytes: Int
    /// The longest request head read: room for the longest search typed into an address bar (about 90 KB of Korean),
    /// so that it gets the storefront's own too-long page instead of a bare 400.
    public static let headBytes = 128 * 1024

    public init(connections: ConnectionLimit, bodies: BodyBudget, idleTimeout: Duration, responseCacheBytes: Int) {
        self.connections = connections
        self.bodies = bodies
        self.idleTimeout = idleTimeout
        self.responseCacheBytes = responseCacheBytes
    }
}

/// How many connections the server keeps open at most. One more is accepted only to answer its first request 503 with
/// Retry-After and close: a client learns at once that the market is full, instead of waiting in the listen queue.
public final class ConnectionLimit: Sendable {
    public let maximum: Int
    private let count = Atomic<Int>(0)

    public init(maximum: Int) { self.maximum = maximum }

    /// Connections open now, refused ones included until they close.
    public var open: Int { count.load(ordering: .relaxed) }

    /// Counts a new connection; false when it is one too many.
    func admit() -> Bool { count.wrappingAdd(1, ordering: .relaxed).newValue <= maximum }

    func release() { count.wrappingSubtract(1, ordering: .relaxed) }
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

    init(limit: ConnectionLimit) { self.limit = limit }

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
        let bound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}

/// How many bytes of request bodies the server holds in memory at once, across every request. A body that does not
/// fit now is refused with 503 and Retry-After by its declared size, before a byte of it is read.
public final class BodyBudget: Sendable {
    public let limit: Int
    private let held = Mutex(0)

    public init(limit: Int) { self.limit = limit }

    /// Bytes reserved by requests being received or handled now.
    public var inFlight: Int { held.withLock { $0 } }

    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    func release(_ bytes: Int) { held.withLock { $0 -= bytes } }
}

/// Answers `Expect: 100-continue` with `100 Continue` when the request's turn comes, as HTTP/1.1 asks and Hummingbird
/// cannot: curl sends it with each body over 1 MB and otherwise waits a second. A refusal that needs no body still
/// comes before it is read; a pipelined request's go-ahead waits for the responses before it to end, keeping order.
final class ExpectContinue: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The requests whose responses have not ended yet, oldest first: whether each still waits for its go-ahead.
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

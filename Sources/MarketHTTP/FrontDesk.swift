import Foundation
import HTTPTypes
import Logging
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketStorefront
import Metrics
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Answers, on the connection's own thread and before the router sees them, the reads that need
/// none of the routes' work: images held in memory (their URLs never change), and answers the
/// router gave before and marked as holding for anyone who asks the same until the catalogue
/// changes (`AnswerCache.deskHeader`), given again only after reading the catalogue's version as
/// the router would. Those are the same bytes the router gave; the desk logs, counts and notes
/// them for the inspector as the router's middleware does. Anything else goes to the router
/// untouched, and so does anything the desk is unsure of.
final class FrontDesk: Sendable {
    enum Plan: Sendable {
        case image(String)
        case kept(String)
    }

    let service: MarketService
    let answers: AnswerCache
    let rehearsals: Rehearsals
    let logger: Logger
    let serverName: String
    private let date = HTTPDate()
    private struct Meter: Hashable {
        var route: String
        var status: Int
    }
    private let meters = Mutex<[Meter: (count: Counter, time: Metrics.Timer)]>([:])

    init(service: MarketService, answers: AnswerCache, rehearsals: Rehearsals, logger: Logger, serverName: String) {
        self.service = service
        self.answers = answers
        self.rehearsals = rehearsals
        self.logger = logger
        self.serverName = serverName
    }

    /// The handler each connection's pipeline gets.
    func handler() -> some RemovableChannelHandler { FrontDeskHandler(desk: self) }

    /// What the desk may do for a request with this head. A request that names a vendor is never
    /// the desk's: that vendor's inspector records it and may fail it on purpose.
    func plan(for head: HTTPRequest) -> Plan? {
        let fields = head.headerFields
        guard head.method == .get, head.identifier == nil, fields[.contentLength] == nil,
            fields[.transferEncoding] == nil, fields[.connection]?.lowercased() != "close", let path = head.path
        else { return nil }
        if path.utf8.starts(with: "/images/".utf8), case let key = path.utf8.dropFirst(8),
            !key.contains(UInt8(ascii: "/")), !key.contains(UInt8(ascii: "?"))
        {
            return .image(String(Substring(key)))
        }
        return .kept(Self.key(of: head))
    }

    /// Kept under another key than the router's own answers: these are the answers as they left,
    /// compressed or not as the client accepts.
    static func key(of head: HTTPRequest) -> String {
        let gzip = CompressionMiddleware<MarketRequestContext>.acceptsGzip(head.headerFields[.acceptEncoding])
        return (gzip ? "desk gzip\n" : "desk\n") + AnswerCache.key(of: head)
    }

    /// The image's answer, when its bytes are at hand.
    func image(_ key: String, for head: HTTPRequest) -> (HTTPResponse, ByteBuffer?, route: String)? {
        guard let data = service.imageAtHand(key: key), let format = ImageKey.format(of: key) else { return nil }
        var fields = ImageAnswer.headers(key: key, format: format)
        let unchanged = ImageAnswer.isUnchanged(fields, for: head)
        if !unchanged { fields[.contentLength] = String(data.count) }
        fields[.xContentTypeOptions] = "nosniff"
        fields[.date] = date.now()
        fields[.server] = serverName
        let body = unchanged ? nil : ByteBuffer(bytes: data)
        return (HTTPResponse(status: unchanged ? .notModified : .ok, headerFields: fields), body, "/images/{key}")
    }

    /// A kept answer, or 304 for a client that holds it already.
    func response(_ answer: AnswerCache.Answer, for head: HTTPRequest) -> (HTTPResponse, ByteBuffer?) {
        var fields = answer.headers
        fields[.date] = date.now()
        if answer.newToken { fields = Self.withNewToken(fields) }
        if let tag = fields[.eTag], let asked = head.headerFields[.ifNoneMatch], AnswerCache.matches(asked, tag) {
            return (HTTPResponse(status: .notModified, headerFields: AnswerCache.unchanged(fields)), nil)
        }
        return (HTTPResponse(status: .ok, headerFields: fields), answer.body)
    }

    /// The same fields, the form token they hand out made anew.
    static func withNewToken(_ fields: HTTPFields) -> HTTPFields {
        let prefix = FormToken.cookieName + "="
        return HTTPFields(
            fields.map { field in
                guard field.name == .setCookie, field.value.hasPrefix(prefix) else { return field }
                return HTTPField(name: .setCookie, value: prefix + FormToken.make() + field.value.drop { $0 != ";" })
            })
    }

    /// Logs, counts and notes an answer the desk gave, as the router's middleware would have.
    func answered(
        _ head: HTTPRequest, _ status: HTTPResponse.Status, route: String, since start: ContinuousClock.Instant
    ) {
        let path = (head.path ?? "/").prefix { $0 != "?" }
        logger.info(RequestLogMiddleware<MarketRequestContext>.line(head.method, String(path), status, since: start))
        let meter = meters.withLock { meters in
            let name = Meter(route: route, status: status.code)
            if let meter = meters[name] { return meter }
            let dimensions = [
                ("http.route", route), ("http.request.method", head.method.rawValue),
                ("http.response.status_code", String(status.code)),
            ]
            let meter = (
                Counter(label: "hb.requests", dimensions: dimensions),
                Metrics.Timer(
                    label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            )
            meters[name] = meter
            return meter
        }
        meter.count.increment()
        meter.time.recordNanoseconds(Int64((ContinuousClock.now - start) / .nanoseconds(1)))
        AnonymousReads.note(head, status: Int(status.code), started: start, rehearsals: rehearsals, logger: logger)
    }
}

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
        var key: String?
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
    private var readWanted = false
    private var closeWanted: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(desk: FrontDesk) {
        self.desk = desk
    }

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
        switch request.plan {
        case .image(let key):
            guard let (head, body, route) = desk.image(key, for: request.head) else {
                return toRouterWhole(request.head, keepingAs: nil, context: context)
            }
            write(head, body, context: context)
            desk.answered(request.head, head.status, route: route, since: request.started)
        case .kept(let key):
            guard desk.answers.holds(key) else { return toRouterWhole(request.head, keepingAs: key, context: context) }
            held = []
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            desk.service.catalogueVersion { version in
                loop.execute {
                    let (handler, context) = bound.value
                    handler.answer(request, key: key, at: version, context: context)
                }
            }
        }
    }

    private func answer(
        _ request: Request, key: String, at version: Result<Int64, any Error>, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return held = nil }
        if case .success(let version) = version, let kept = desk.answers.answer(for: key, at: version, now: Date()) {
            let (head, body) = desk.response(kept, for: request.head)
            write(head, body, context: context)
            desk.answered(request.head, head.status, route: kept.route, since: request.started)
        } else {
            // Changed, gone, or the version could not be read: the router says which.
            toRouter(request.head, keepingAs: key, context: context)
            context.fireChannelRead(wrapInboundOut(.end(nil)))
        }
        let parts = held ?? []
        held = nil
        for part in parts {
            if held != nil { held!.append(part) } else { take(part, context: context) }
        }
        context.fireChannelReadComplete()
        guard held == nil else { return }
        if readWanted {
            readWanted = false
            context.read()
        }
        if let close = closeWanted {
            closeWanted = nil
            context.close(mode: close.mode, promise: close.promise)
        }
    }

    private func toRouter(_ head: HTTPRequest, keepingAs key: String?, context: ChannelHandlerContext) {
        var head = head
        let asked = key == nil ? nil : head.headerFields[.ifNoneMatch]
        if asked != nil { head.headerFields[.ifNoneMatch] = nil }
        withRouter.append(Forwarded(key: key, asked: asked))
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// A whole bodiless request for the router, outside the read that brought it.
    private func toRouterWhole(_ head: HTTPRequest, keepingAs key: String?, context: ChannelHandlerContext) {
        toRouter(head, keepingAs: key, context: context)
        context.fireChannelRead(wrapInboundOut(.end(nil)))
    }

    private func write(_ head: HTTPResponse, _ body: ByteBuffer?, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    // MARK: The router's answers

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let forwarded = withRouter.first
            if let mark = head.headerFields[AnswerCache.deskHeader] {
                head.headerFields[AnswerCache.deskHeader] = nil
                copying = Self.copy(of: head, marked: mark, as: forwarded?.key)
            }
            if let asked = forwarded?.asked, head.status == .ok, let tag = head.headerFields[.eTag],
                AnswerCache.matches(asked, tag)
            {
                head = HTTPResponse(status: .notModified, headerFields: AnswerCache.unchanged(head.headerFields))
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
            dropsBody = false
            if let copying { desk.answers.keep(copying.answer, for: copying.key) }
            copying = nil
            if !withRouter.isEmpty { withRouter.removeFirst() }
        }
        context.write(data, promise: promise)
    }

    /// What the desk keeps of a marked answer (`AnswerCache.deskHeader`) to a request it may keep.
    private static func copy(
        of head: HTTPResponse, marked mark: String, as key: String?
    ) -> (key: String, answer: AnswerCache.Answer)? {
        let marks = mark.split(separator: " ")
        let newToken = marks.contains { $0 == AnswerCache.newTokenMark }
        guard let key, let version = marks.first.flatMap({ Int64($0) }), marks.count > 1, head.status == .ok,
            newToken || head.headerFields[.setCookie] == nil
        else { return nil }
        let answer = AnswerCache.Answer(
            version: version, headers: head.headerFields, body: ByteBuffer(), route: String(marks[1]),
            newToken: newToken)
        return (key, answer)
    }

    func read(context: ChannelHandlerContext) {
        guard held == nil else { return readWanted = true }
        context.read()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard held == nil else { return closeWanted = (mode, promise) }
        context.close(mode: mode, promise: promise)
    }
}

/// The `Date` header's value now, written once a second (RFC 9110's IMF-fixdate), as the router
/// puts it on its answers.
final class HTTPDate: Sendable {
    private let written = Mutex((second: 0, text: ""))

    func now() -> String {
        let second = Int(Date().timeIntervalSince1970)
        return written.withLock { written in
            if written.second != second { written = (second, Self.text(second)) }
            return written.text
        }
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func text(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        let two = { (number: Int32) in number < 10 ? "0\(number)" : "\(number)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

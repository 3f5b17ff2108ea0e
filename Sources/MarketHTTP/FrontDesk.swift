import Foundation
import HTTPTypes
import Logging
import MarketCore
import MarketHTTPShared
import MarketInspector
import MarketStorefront
import Metrics
import NIOCore
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
        case kept(DeskKey)

        /// What the router's answer may be kept under.
        var key: DeskKey? {
            if case .kept(let key) = self { key } else { nil }
        }
    }

    let service: MarketService
    let answers: AnswerCache
    let rehearsals: Rehearsals
    let logger: Logger
    let serverName: String
    /// The reads the desk may answer itself when it has not kept their answers.
    let routes: DeskRoutes
    let shapes = DeskShapes()
    /// The `Date` header's value (RFC 9110's IMF-fixdate), as the router puts it on its answers.
    private let date = TextOfTheSecond { second in
        var time = second
        var parts = tm()
        gmtime_r(&time, &parts)
        let two = { (number: Int32) in number < 10 ? "0\(number)" : "\(number)" }
        let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][Int(parts.tm_wday)]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
            Int(parts.tm_mon)]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
    private struct Meter: Hashable {
        var route: String
        var status: Int
    }
    private let meters = Mutex<[Meter: (count: Counter, time: Metrics.Timer)]>([:])
    /// Images' heads by key (`imageHead`), a few thousand at most.
    private let imageHeads = Mutex<[String: ImageHead]>([:])
    private struct ImageHead {
        var tag: String
        var length: Int
        var fields: HTTPFields
        /// The same head as the wire writes it (`FrontDeskWire.write`), with the date it was made
        /// on: `dateAt` is where that date's `dateLength` bytes are.
        var wire: ByteBuffer
        var dateAt: Int
        var dateLength: Int
    }
    static let imageRoute = "/images/{key}"

    init(
        service: MarketService, answers: AnswerCache, reads: [DeskRead], rehearsals: Rehearsals, logger: Logger,
        serverName: String
    ) {
        self.service = service
        self.answers = answers
        routes = DeskRoutes(reads)
        self.rehearsals = rehearsals
        self.logger = logger
        self.serverName = serverName
    }

    /// The handler each connection's pipeline gets; it puts the desk's wire before the HTTP parser
    /// on connections the gate admitted.
    func handler(gate: ConnectionGate, idle: IdleConnection) -> some RemovableChannelHandler {
        FrontDeskHandler(desk: self, gate: gate, idle: idle)
    }

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
        return .kept(DeskKey(head))
    }

    /// An answer the desk gives.
    struct Answer {
        var response: HTTPResponse
        var body: ByteBuffer?
        var route: String
        /// SwiftNIO's encoder would write it as it is: a 304, or a 200 with its length.
        var framed = true
    }

    /// Called once, on any thread, with the desk's answer, or nil when the router must answer.
    typealias Delivery = @Sendable (Answer?) -> Void

    /// What the desk does next for a request it may answer (`plan`).
    enum Next {
        case answer(Answer)
        /// The answer must wait (for the catalogue's version, or a read): `start` delivers it,
        /// made on the connection's loop it is given when the desk makes it.
        case later(_ start: @Sendable (any EventLoop, @escaping Delivery) -> Void)
        /// The router's; its answer is kept under `keepingAs` when it may be given again.
        case router(keepingAs: DeskKey?)

        /// Hands the answer to `deliver`, now or once it comes.
        func deliver(on loop: any EventLoop, to deliver: @escaping Delivery) {
            switch self {
            case .answer(let answer): deliver(answer)
            case .later(let start): start(loop, deliver)
            case .router: deliver(nil)
            }
        }
    }

    func next(for head: HTTPRequest, _ plan: Plan) -> Next {
        switch plan {
        case .image(let key): return image(key, for: head).map(Next.answer) ?? .router(keepingAs: nil)
        case .kept(let key):
            // How to make the answer is worked out only when none is kept or it no longer holds:
            // matching the route took 4 % of the time a kept list page takes.
            let held = answers.holds(key.text)
            let making = held ? nil : making(key)
            guard held || making != nil else { return .router(keepingAs: key) }
            if let version = service.catalogueVersionAtHand() {
                return next(for: head, key, making, at: .success(version))
            }
            return .later { [self] loop, deliver in
                service.catalogueVersion { version in
                    self.next(for: head, key, making, at: version).deliver(on: loop, to: deliver)
                }
            }
        }
    }

    /// The kept answer when it still holds at `version`, or the one the desk makes; otherwise the
    /// router's (changed, gone, or the version could not be read: the router says which).
    private func next(
        for head: HTTPRequest, _ key: DeskKey, _ making: DeskMaking?, at version: Result<Int64, any Error>
    ) -> Next {
        guard case .success(let version) = version else { return .router(keepingAs: key) }
        guard let kept = answers.answer(for: key.text, at: version, now: Date()) else {
            return (making ?? self.making(key)).flatMap { made($0, key, for: head, at: version) }
                ?? .router(keepingAs: key)
        }
        // The router stages what a seller rehearses, and reads their faults again when they may have changed.
        if let vendorID = kept.rehearser, !rehearsals.rehearsesNothing(vendorID) { return .router(keepingAs: key) }
        return .answer(given(kept, to: head))
    }

    /// A kept answer as the desk gives it: with today's date, a new visitor's own token, or as 304
    /// to a client that holds it already.
    func given(_ kept: AnswerCache.Answer, to head: HTTPRequest) -> Answer {
        let (response, body) = response(kept, for: head)
        let framed = response.status == .notModified || kept.headers[.contentLength] != nil
        return Answer(response: response, body: body, route: kept.route, framed: framed)
    }

    /// The image's answer, when its bytes are at hand.
    func image(_ key: String, for head: HTTPRequest) -> Answer? {
        guard let data = service.imageAtHand(key: key), let kept = imageHead(key, length: data.count) else {
            return nil
        }
        let unchanged = ImageAnswer.isUnchanged(kept.tag, for: head)
        var fields = kept.fields
        if unchanged { fields[.contentLength] = nil }
        fields[.date] = date.now()
        let body = unchanged ? nil : ByteBuffer(bytes: data)
        return Answer(
            response: HTTPResponse(status: unchanged ? .notModified : .ok, headerFields: fields), body: body,
            route: Self.imageRoute)
    }

    /// The image's whole answer in one buffer, its head and then its bytes, when they are at hand
    /// and the client holds no copy (`image` answers the rest): only the date is written anew.
    func imageOnWire(_ key: String, for head: HTTPRequest, allocator: ByteBufferAllocator) -> ByteBuffer? {
        guard head.headerFields[.ifNoneMatch] == nil, let data = service.imageAtHand(key: key),
            let kept = imageHead(key, length: data.count)
        else { return nil }
        let today = date.now()
        guard today.utf8.count == kept.dateLength else { return nil }
        var bytes = allocator.buffer(capacity: kept.wire.readableBytes + data.count)
        bytes.writeImmutableBuffer(kept.wire)
        bytes.setString(today, at: kept.dateAt)
        bytes.writeBytes(data)
        return bytes
    }

    /// The head of an image's whole answer, in the order the router's answer has its fields: its
    /// own, then the middleware's, then Hummingbird's; dated when it was made, each answer dated
    /// anew. Made once for each image (making it, and then writing it field by field, took a fifth
    /// of a thumbnail's time): its key names its bytes for good. A length
    /// that differs (a smaller copy made again by another libvips) makes the head anew.
    private func imageHead(_ key: String, length: Int) -> ImageHead? {
        if let kept = imageHeads.withLock({ $0[key] }), kept.length == length { return kept }
        guard let format = ImageKey.format(of: key) else { return nil }
        let tag = ImageAnswer.tag(of: key)
        var fields = ImageAnswer.headers(tag: tag, format: format)
        fields.append(HTTPField(name: .contentLength, value: String(length)))
        fields.append(HTTPField(name: .xContentTypeOptions, value: "nosniff"))
        fields.append(HTTPField(name: .date, value: date.now()))
        fields.append(HTTPField(name: .server, value: serverName))
        var wire = ByteBufferAllocator().buffer(capacity: 256)
        guard let dateAt = FrontDeskWire.write(HTTPResponse(status: .ok, headerFields: fields), to: &wire) else {
            return nil
        }
        let made = ImageHead(
            tag: tag, length: length, fields: fields, wire: wire, dateAt: dateAt,
            dateLength: fields[.date]?.utf8.count ?? 0)
        imageHeads.withLock { heads in
            if heads.count >= 4096 { heads = [:] }
            heads[key] = made
        }
        return made
    }

    /// A kept answer, or 304 for a client that holds it already.
    private func response(_ answer: AnswerCache.Answer, for head: HTTPRequest) -> (HTTPResponse, ByteBuffer?) {
        var fields = answer.headers
        fields[.date] = date.now()
        if answer.newToken { fields = Self.withNewToken(fields) }
        if let unchanged = AnswerCache.unchanged(fields, asked: head.headerFields[.ifNoneMatch]) {
            return (HTTPResponse(status: .notModified, headerFields: unchanged), nil)
        }
        return (HTTPResponse(status: .ok, headerFields: fields), answer.body)
    }

    /// The same fields, the form token they hand out made anew.
    static func withNewToken(_ fields: HTTPFields) -> HTTPFields {
        let prefix = FormToken.cookieName + "="
        var fields = fields
        guard let index = fields.firstIndex(where: { $0.name == .setCookie && $0.value.hasPrefix(prefix) }) else {
            return fields
        }
        let cookie = fields[index].value
        let attributes = cookie.utf8.firstIndex(of: UInt8(ascii: ";")).map { cookie[$0...] } ?? ""
        fields[index] = HTTPField(name: .setCookie, value: prefix + FormToken.make() + attributes)
        return fields
    }

    /// What the desk keeps of a marked answer (`AnswerCache.deskHeader`) to a request it may keep;
    /// and the answer's head, for answers the desk makes itself to requests like it.
    func copy(
        of head: HTTPResponse, marked mark: String, as key: DeskKey?
    ) -> (key: String, answer: AnswerCache.Answer)? {
        guard let key, let mark = AnswerCache.DeskMark(mark), head.status == .ok,
            mark.newToken || head.headerFields[.setCookie] == nil
        else { return nil }
        // What the desk makes carries no end: an answer that has one (a page showing a sign-in)
        // is only ever the router's to make.
        if routes.has(route: mark.route), mark.expires == nil {
            shapes.learn(route: mark.route, variant: key.variant, head: head.headerFields)
        }
        let answer = AnswerCache.Answer(
            version: mark.version, headers: head.headerFields, body: ByteBuffer(), expires: mark.expires,
            rehearser: mark.rehearser, route: mark.route, newToken: mark.newToken)
        return (key.text, answer)
    }

    /// Logs, counts and notes an answer the desk gave, as the router's middleware would have.
    func answered(
        _ head: HTTPRequest, _ status: HTTPResponse.Status, route: String, since start: ContinuousClock.Instant
    ) {
        let path = head.path ?? "/"
        let withoutQuery = path.utf8.firstIndex(of: UInt8(ascii: "?")).map { path[..<$0] } ?? path[...]
        RequestLogMiddleware<MarketRequestContext>.log(
            head.method, String(withoutQuery), status, since: start, to: logger)
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

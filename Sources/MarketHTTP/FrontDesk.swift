import Foundation
import HTTPTypes
import Logging
import MarketCore
import MarketHTTPShared
import NIOCore
import Synchronization

/// Answers, on the connection's event loop and before the router, the reads that need none of the
/// router's work: images held in memory (their URLs never change), answers the answer cache kept
/// (once the catalogue's version says they still hold), and the answers of the adapters' catalogue
/// reads (`DeskRead`), made as their routes make them. Each is finished as the middleware outside
/// the cache finishes the router's (a new visitor's form token, compression, `nosniff`, the date),
/// and logged, counted and noted for the operator as the router's are. Anything else, and anything
/// the desk is unsure of, goes to the router untouched.
final class FrontDesk: Sendable {
    /// What the desk may do for a request, judged by its head.
    enum Plan: Sendable {
        case image(String)
        /// A read whose answer may be kept under `key`, or made by `making` (a desk read's and its parameters).
        case read(key: String, making: (read: DeskRead, parameters: [Substring])?)
    }

    /// An answer the desk gives.
    struct Answer: Sendable {
        var response: HTTPResponse
        var body: ByteBuffer?
        var route: String
    }

    /// What the desk does next for a request it may answer.
    enum Next: Sendable {
        case answer(Answer)
        /// The answer must wait (for the catalogue's version, or a read); nil then: the router's.
        case later(@Sendable () async -> Answer?)
        case router
    }

    let service: MarketService
    let answers: AnswerCache
    let routes: DeskRoutes
    let rehearsals: Rehearsals
    let meters: RequestMeters
    /// Keeps an API read the desk answered for the operator, as the inspector keeps those it sees.
    let noteRead: @Sendable (HTTPRequest, HTTPResponse.Status, ContinuousClock.Instant) -> Void
    let logger: Logger
    let serverName: String
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
    private let imageHeads = Mutex<[String: (response: HTTPResponse, length: Int, date: String)]>([:])

    init(
        service: MarketService, answers: AnswerCache, reads: [DeskRead], rehearsals: Rehearsals,
        meters: RequestMeters,
        noteRead: @escaping @Sendable (HTTPRequest, HTTPResponse.Status, ContinuousClock.Instant) -> Void,
        logger: Logger, serverName: String
    ) {
        self.service = service
        self.answers = answers
        routes = DeskRoutes(reads)
        self.rehearsals = rehearsals
        self.meters = meters
        self.noteRead = noteRead
        self.logger = logger
        self.serverName = serverName
    }

    /// What the desk may do for a request with this head. A request that names a vendor is never
    /// the desk's: that vendor's inspector records it and may fail it on purpose.
    func plan(for head: HTTPRequest) -> Plan? {
        let fields = head.headerFields
        guard head.method == .get, head.identifier == nil, fields[.contentLength] == nil,
            fields[.transferEncoding] == nil, fields[.connection]?.lowercased() != "close", let path = head.path
        else { return nil }
        let segments = DeskRoutes.segments(of: path)
        if let key = DeskRoutes.parameters(of: segments, in: ImageAnswer.routeSegments)?.first {
            return .image(String(key))
        }
        let key = AnswerCache.key(of: head)
        let making = routes.match(segments)
        guard making != nil || answers.holds(key) else { return nil }
        return .read(key: key, making: making)
    }

    func next(for head: HTTPRequest, _ plan: Plan) -> Next {
        switch plan {
        case .image(let key):
            return image(key, for: head).map(Next.answer) ?? .router
        case .read(let key, let making):
            if let version = service.catalogueVersionAtHand() { return next(for: head, key, making, at: version) }
            return .later { [self] in
                guard let version = try? await service.catalogueVersion() else { return nil }
                switch next(for: head, key, making, at: version) {
                case .answer(let answer): return answer
                case .later(let made): return await made()
                case .router: return nil
                }
            }
        }
    }

    /// The kept answer when it holds at `version`, or the one the desk makes; otherwise the
    /// router's (changed, refused, or the store failed: the router says which). A kept answer is
    /// finished for the request once (`finishing`) and kept so, beside the route's, under `given`.
    private func next(
        for head: HTTPRequest, _ key: String, _ making: (read: DeskRead, parameters: [Substring])?,
        at version: Int64
    ) -> Next {
        let gzip = CompressionMiddleware<MarketRequestContext>.acceptsGzip(head.headerFields[.acceptEncoding])
        let given = key + (gzip ? "\ngiven gzip" : "\ngiven")
        let now = Date()
        if head.headerFields[.ifNoneMatch] == nil, let ready = answers.answer(for: given, at: version, now: now) {
            return mayGive(ready) ? .answer(dated(ready.headers, .ok, ready, to: head, body: ready.body)) : .router
        }
        if let kept = answers.answer(for: key, at: version, now: now) {
            return mayGive(kept) ? .answer(self.given(kept, as: given, gzip: gzip, to: head)) : .router
        }
        guard let (read, parameters) = making, let making = read.making(head, parameters) else { return .router }
        return .later { [self] in
            guard let body = await making.body() else { return nil }
            // The route's answer as the answer cache keeps it: its own fields, its length and its tag.
            var fields = read.headers
            fields[.contentLength] = String(body.readableBytes)
            fields[.eTag] = AnswerCache.tag(of: body)
            let made = AnswerCache.Answer(
                version: version, headers: fields, body: body, terms: making.terms, route: read.route)
            if making.terms.keep { answers.keep(made, for: key) }
            return self.given(made, as: given, gzip: gzip, to: head)
        }
    }

    /// The router stages what a seller rehearses, and reads their faults again when they may have changed.
    private func mayGive(_ answer: AnswerCache.Answer) -> Bool {
        answer.terms.rehearser.map { rehearsals.rehearsesNothing($0) } ?? true
    }

    /// A kept answer as the router gives it: as 304 to a client that holds it already; otherwise
    /// finished, and kept so under `key`.
    private func given(_ kept: AnswerCache.Answer, as key: String, gzip: Bool, to head: HTTPRequest) -> Answer {
        if let unchanged = AnswerCache.unchanged(kept.headers, asked: head.headerFields[.ifNoneMatch]) {
            let (fields, _) = finishing(unchanged, body: nil, kept.terms, gzip: gzip, to: head)
            return dated(fields, .notModified, kept, to: head, body: nil)
        }
        let (fields, body) = finishing(kept.headers, body: kept.body, kept.terms, gzip: gzip, to: head)
        let ready = AnswerCache.Answer(
            version: kept.version, headers: fields, body: body ?? kept.body, terms: kept.terms, route: kept.route)
        if kept.terms.keep { answers.keep(ready, for: key) }
        return dated(fields, .ok, ready, to: head, body: ready.body)
    }

    /// What the middleware outside the answer cache adds to an answer, in its order: a new visitor's
    /// form token (made anew for each answer by `dated`), compression, `nosniff`.
    private func finishing(
        _ fields: HTTPFields, body: ByteBuffer?, _ terms: AnswerTerms, gzip: Bool, to head: HTTPRequest
    ) -> (HTTPFields, ByteBuffer?) {
        typealias Compression = CompressionMiddleware<MarketRequestContext>
        var fields = fields
        var body = body
        // Its place only: `dated` sets each answer's own token there.
        if terms.newToken { fields.append(HTTPField(name: .setCookie, value: "")) }
        if Compression.mayCompress(&fields, length: body?.readableBytes, acceptingGzip: gzip), let plain = body,
            let compressed = Gzip.compress(plain)
        {
            Compression.compressed(&fields, to: compressed)
            body = compressed
        }
        NoSniffMiddleware<MarketRequestContext>.mark(&fields)
        return (fields, body)
    }

    /// A finished answer as it leaves now: a new visitor's own token, the date, the server's name.
    private func dated(
        _ fields: HTTPFields, _ status: HTTPResponse.Status, _ answer: AnswerCache.Answer, to head: HTTPRequest,
        body: ByteBuffer?
    ) -> Answer {
        var fields = fields
        if answer.terms.newToken, let index = fields.firstIndex(where: { $0.name == .setCookie }) {
            fields[index] = newToken(for: head)
        }
        fields[.date] = date.now()
        fields[.server] = serverName
        return Answer(
            response: HTTPResponse(status: status, headerFields: fields), body: body, route: answer.route)
    }

    private func newToken(for head: HTTPRequest) -> HTTPField {
        HTTPField(
            name: .setCookie,
            value: FormToken.cookie(FormToken.make(), secure: head.clientScheme == "https").description)
    }

    /// The image's answer, when its bytes are at hand. Its 200's head is made once for each image
    /// and each second (its date) and kept (a few thousand at most), as its key names its bytes for good.
    private func image(_ key: String, for head: HTTPRequest) -> Answer? {
        guard let data = service.imageAtHand(key: key) else { return nil }
        let date = self.date.now()
        if head.headerFields[.ifNoneMatch] == nil, let kept = imageHeads.withLock({ $0[key] }), kept.date == date,
            kept.length == data.count
        {
            return Answer(response: kept.response, body: ByteBuffer(bytes: data), route: ImageAnswer.route)
        }
        guard let (status, imageHead) = ImageAnswer.head(key, for: head) else { return nil }
        var fields = imageHead
        if status == .ok { fields[.contentLength] = String(data.count) }
        NoSniffMiddleware<MarketRequestContext>.mark(&fields)
        fields[.date] = date
        fields[.server] = serverName
        let response = HTTPResponse(status: status, headerFields: fields)
        if status == .ok {
            imageHeads.withLock { heads in
                if heads.count >= 4096 { heads = [:] }
                heads[key] = (response, data.count, date)
            }
        }
        return Answer(response: response, body: status == .ok ? ByteBuffer(bytes: data) : nil, route: ImageAnswer.route)
    }

    /// Logs, counts and notes an answer the desk gave, as the router's middleware would have.
    func answered(
        _ head: HTTPRequest, _ status: HTTPResponse.Status, route: String, since start: ContinuousClock.Instant
    ) {
        let path = head.path ?? "/"
        let withoutQuery = path.utf8.firstIndex(of: UInt8(ascii: "?")).map { path[..<$0] } ?? path[...]
        RequestLogMiddleware<MarketRequestContext>.log(
            head.method, String(withoutQuery), status, since: start, to: logger)
        meters.answered(head.method, route: route, status: status, since: start)
        noteRead(head, status, start)
    }
}

/// The reads the desk may make itself (`DeskRead`), found by path as the router finds routes:
/// segment by segment, letters in either case, empty segments and the query ignored.
struct DeskRoutes: Sendable {
    private let reads: [(segments: [Substring], read: DeskRead)]

    init(_ reads: [DeskRead]) {
        self.reads = reads.map { ($0.route.split(separator: "/"), $0) }
    }

    /// The read whose route a path of these `segments` names, with the path's parameters in order.
    func match(_ segments: [Substring]) -> (read: DeskRead, parameters: [Substring])? {
        for (template, read) in reads {
            if let parameters = Self.parameters(of: segments, in: template) { return (read, parameters) }
        }
        return nil
    }

    /// A path's segments as the router sees them: without its query, empty ones left out.
    static func segments(of path: String) -> [Substring] {
        // Split as bytes: splitting the string compares whole characters, a twentieth of an image's time.
        let end = path.utf8.firstIndex(of: UInt8(ascii: "?")) ?? path.endIndex
        return path.utf8[..<end].split(separator: UInt8(ascii: "/")).map(Substring.init)
    }

    /// The parameters a path of these `segments` gives the route whose segments are `template`, or
    /// nil when it names another.
    static func parameters(of segments: [Substring], in template: [Substring]) -> [Substring]? {
        guard template.count == segments.count else { return nil }
        var parameters: [Substring] = []
        for (expected, segment) in zip(template, segments) {
            if expected.first == "{" {
                parameters.append(segment)
            } else if !expected.utf8.caselessEquals(segment.utf8) {
                return nil
            }
        }
        return parameters
    }
}

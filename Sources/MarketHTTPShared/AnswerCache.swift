import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import NIOCore
import Synchronization

/// Answers the catalogue's reads (lists, details, pages) already gave, kept with the catalogue
/// version they were read at and given again while that version stands. The version is read
/// after each request arrives, from the store every server writes to, so a change made through
/// any server is seen by the next request to every server: nothing expires on a timer, and
/// nothing is stale. Bounded by bytes; the least recently used answers go first. An answer is kept
/// the second time it is made within the last few thousand answers (`asked`), not the first: most
/// of a large catalogue's products are asked for once in a long while, and keeping each of those
/// pushed out the answers that are asked again (and took a tenth of a random detail's CPU time).
package final class AnswerCache: Sendable {
    /// One kept answer: the head and body the route gave, before the middleware outside the cache
    /// (compression, `nosniff`, the date) finished it.
    package struct Answer: Sendable {
        package var version: Int64
        package var headers: HTTPFields
        package var body: ByteBuffer
        package var terms: AnswerTerms
        /// The route that gave it, for the front desk's metrics.
        package var route: String

        package init(version: Int64, headers: HTTPFields, body: ByteBuffer, terms: AnswerTerms, route: String) {
            self.version = version
            self.headers = headers
            self.body = body
            self.terms = terms
            self.route = route
        }

        var size: Int { body.readableBytes + 512 }

        func holds(at version: Int64, now: Date) -> Bool {
            self.version == version && terms.expires.map { $0 > now } ?? true
        }
    }

    /// Answers in two generations: new ones and those used lately go into `recent`; when it holds
    /// half the capacity, it becomes `older` and the previous `older` is dropped. Constant time per
    /// request, and what goes is what was not used for a generation.
    private struct Generations {
        var recent: [String: Answer] = [:]
        var recentSize = 0
        var older: [String: Answer] = [:]
        var newestVersion: Int64 = .min
    }

    /// The hashes of the keys answers were made for lately, each in the slot its hash picks, where
    /// a later key may take its place.
    private let asked = Mutex([Int](repeating: 0, count: 4096))

    private let capacity: Int
    private let generations = Mutex(Generations())

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package func answer(for key: String, at version: Int64, now: Date) -> Answer? {
        var dropped: [[String: Answer]] = []
        defer { Self.release(dropped) }
        return generations.withLock { kept in
            forget(before: version, in: &kept, dropping: &dropped)
            if let answer = kept.recent[key] {
                guard answer.holds(at: version, now: now) else {
                    kept.recentSize -= answer.size
                    kept.recent[key] = nil
                    return nil
                }
                return answer
            }
            guard let answer = kept.older.removeValue(forKey: key) else { return nil }
            guard answer.holds(at: version, now: now) else { return nil }
            insert(answer, for: key, in: &kept, dropping: &dropped)
            return answer
        }
    }

    /// Some answer is kept for `key`, of whatever version: worth reading the version to find out.
    package func holds(_ key: String) -> Bool {
        generations.withLock { $0.recent[key] != nil || $0.older[key] != nil }
    }

    package func keep(_ answer: Answer, for key: String) {
        guard answer.size * 2 <= capacity, askedBefore(key) else { return }
        var dropped: [[String: Answer]] = []
        defer { Self.release(dropped) }
        generations.withLock { kept in
            forget(before: answer.version, in: &kept, dropping: &dropped)
            guard answer.version == kept.newestVersion else { return }
            if let previous = kept.recent.removeValue(forKey: key) { kept.recentSize -= previous.size }
            insert(answer, for: key, in: &kept, dropping: &dropped)
        }
    }

    /// An answer for `key` was made lately; if not, it is now.
    private func askedBefore(_ key: String) -> Bool {
        let hash = key.hashValue
        return asked.withLock { asked in
            let slot = Int(UInt(bitPattern: hash) % UInt(asked.count))
            defer { asked[slot] = hash }
            return asked[slot] == hash
        }
    }

    private func insert(
        _ answer: Answer, for key: String, in kept: inout Generations, dropping dropped: inout [[String: Answer]]
    ) {
        if kept.recentSize + answer.size > capacity / 2 {
            dropped.append(kept.older)
            kept.older = kept.recent
            kept.recent = [:]
            kept.recentSize = 0
        }
        kept.recent[key] = answer
        kept.recentSize += answer.size
    }

    /// Once a newer version is seen, every answer kept is of the past: none can be given again.
    private func forget(before version: Int64, in kept: inout Generations, dropping dropped: inout [[String: Answer]]) {
        guard version > kept.newestVersion else { return }
        dropped += [kept.recent, kept.older]
        kept = Generations(newestVersion: version)
    }

    /// Answers let go of, freed after the lock and on another thread: a generation is thousands of
    /// answers, and freeing them under the lock held up every request on both event loops (the
    /// random details' p99 was 17–21 ms).
    private static func release(_ dropped: [[String: Answer]]) {
        guard dropped.contains(where: { !$0.isEmpty }) else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} }
    }
}

/// Gives a kept answer when the catalogue has not changed since it was made, and keeps the
/// successful answers of the routes it is added to. Every answer it passes carries an `ETag`; a
/// client that revalidates with `If-None-Match` and still has the same bytes gets 304 without them.
/// Added only to routes whose answer depends on nothing but the URL, the catalogue and the request
/// headers named in `key(of:)`; an answer that sets a cookie is never kept. The front desk gives
/// what it keeps again, before the router.
package struct AnswerCacheMiddleware<Context: RequestContext>: RouterMiddleware {
    let cache: AnswerCache
    let version: @Sendable () async throws -> Int64
    let terms: @Sendable (Context) -> AnswerTerms

    package init(
        cache: AnswerCache, version: @escaping @Sendable () async throws -> Int64,
        terms: @escaping @Sendable (Context) -> AnswerTerms
    ) {
        self.cache = cache
        self.version = version
        self.terms = terms
    }

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        let version = try await version()
        let key = AnswerCache.key(of: request.head)
        if let answer = cache.answer(for: key, at: version, now: Date()) {
            return AnswerCache.response(headers: answer.headers, body: answer.body, to: request)
        }
        let response = try await next(request, context)
        let terms = terms(context)
        guard response.status == .ok, response.headers[.setCookie] == nil, terms.keep else { return response }
        var headers = response.headers
        let body = try await BodyCollector.bytes(of: response)
        headers[.eTag] = AnswerCache.tag(of: body)
        let answer = AnswerCache.Answer(
            version: version, headers: headers, body: body, terms: terms, route: context.endpointPath ?? "")
        cache.keep(answer, for: key)
        return AnswerCache.response(headers: answer.headers, body: answer.body, to: request)
    }
}

/// For whom a kept answer holds, besides everyone who sends the same request while the catalogue
/// stays at its version.
package struct AnswerTerms: Sendable {
    /// It may be kept at all. A page that shows a form token made for this one answer may not: given
    /// again with another visitor's new token, its forms would be refused.
    package var keep = true
    /// It shows something that ends by itself (a sign-in in the page's header).
    package var expires: Date?
    /// The vendor it was made for, whose rehearsed faults it must not pass by: the front desk gives
    /// it only while that vendor rehearses none.
    package var rehearser: Int64?
    /// It hands a new visitor a form token, set beside it: each visitor given it gets one of their own.
    package var newToken = false

    package init(keep: Bool = true, expires: Date? = nil, rehearser: Int64? = nil, newToken: Bool = false) {
        self.keep = keep
        self.expires = expires
        self.rehearser = rehearser
        self.newToken = newToken
    }
}

extension AnswerCache {
    /// Everything an answer of these routes depends on besides the catalogue: the URL, the host and
    /// scheme its links are made for, the language and cookies of a page's visitor.
    package static func key(of request: HTTPRequest) -> String {
        (request.path ?? "") + variant(of: request)
    }

    /// The same but the URL: what requests for different URLs must share to be answered alike.
    package static func variant(of request: HTTPRequest) -> String {
        let headers = request.headerFields
        var variant = ""
        for part in [
            request.authority, request.clientScheme, headers[Self.forwardedHost], headers[.acceptLanguage],
            headers[.cookie], headers[Self.requestedWith],
        ] {
            variant += "\n"
            variant += part ?? ""
        }
        return variant
    }

    private static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!
    private static let requestedWith = HTTPField.Name("X-Requested-With")!

    /// The bytes' own digest, so equal answers have equal tags on every server.
    package static func tag(of body: ByteBuffer) -> String {
        let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        return "\"" + digest.withUnsafeBytes { Digest.hex(UnsafeRawBufferPointer(rebasing: $0.prefix(12))) } + "\""
    }

    /// The answer, or 304 when the client holds these very bytes already.
    static func response(headers: HTTPFields, body: ByteBuffer, to request: Request) -> Response {
        guard let unchanged = unchanged(headers, asked: request.headers[.ifNoneMatch]) else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        return Response(status: .notModified, headers: unchanged)
    }

    /// What a 304 says of an answer with these headers, when `asked` (`If-None-Match`) names its
    /// tag; nil when the client must have the answer itself.
    package static func unchanged(_ headers: HTTPFields, asked: String?) -> HTTPFields? {
        guard let asked, let tag = headers[.eTag], matches(asked, tag) else { return nil }
        var unchanged = HTTPFields()
        for name in [HTTPField.Name.eTag, .cacheControl, .vary, .contentLocation, .xContentTypeOptions, .server] {
            if let value = headers[name] { unchanged[name] = value }
        }
        return unchanged
    }

    /// `If-None-Match` names this tag (compared weakly, as RFC 9110 asks), or is `*`.
    static func matches(_ header: String, _ tag: String) -> Bool {
        let bare = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        return header.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || bare(Substring(candidate)) == bare(Substring(tag))
        }
    }
}

extension RouterGroup {
    /// A group for routes whose answers `cache` may keep and give again (see `AnswerCacheMiddleware`),
    /// on the `terms` their context says.
    package func keepingAnswers(
        in cache: AnswerCache, of service: MarketService,
        terms: @escaping @Sendable (Context) -> AnswerTerms = { _ in AnswerTerms() }
    ) -> RouterGroup<Context> {
        group().add(middleware: AnswerCacheMiddleware(cache: cache, version: service.catalogueVersion, terms: terms))
    }
}

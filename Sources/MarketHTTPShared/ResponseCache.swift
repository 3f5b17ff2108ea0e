import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import MarketCore
import NIOCore
import Synchronization

/// Responses to the catalogue's reads (lists, details, pages), given again while the catalogue version they were read
/// at stands. The version is read per request from the store every server writes to, so a change through any server
/// shows on the next request to every server; nothing expires on a timer.
///
/// Bounded by bytes; what was not used for a generation goes first. A response is kept only the second time it is made
/// lately: most products of a large catalogue are asked for once in a long while and would crowd out those asked again.
package final class ResponseCache: Sendable {
    /// One kept response, as the route made it (compression and the rest are added outside).
    struct Entry: Sendable {
        var version: Int64
        var headers: HTTPFields
        var body: ByteBuffer
        var expires: Date?
        /// What its key holds (a URL and headers may be long, and are kept with it); counted when it is kept.
        var keyBytes = 0

        var size: Int { body.readableBytes + keyBytes + 512 }

        func isFresh(at version: Int64, now: Date) -> Bool {
            self.version == version && expires.map { $0 > now } ?? true
        }
    }

    /// New and lately used entries go into `recent`; when it holds half the capacity it becomes
    /// `older`, and the previous `older` is dropped: constant time per request.
    private struct Generations {
        var recent: [Key: Entry] = [:]
        var recentSize = 0
        var older: [Key: Entry] = [:]
        var newestVersion: Int64 = .min
    }

    /// The hashes of the keys responses were made for lately, each in the slot its hash picks.
    private let asked = Mutex([Int](repeating: 0, count: 4096))
    private let capacity: Int
    private let generations = Mutex(Generations())

    package init(capacity: Int) { self.capacity = capacity }

    func entry(for key: Key, at version: Int64, now: Date) -> Entry? {
        var dropped: [[Key: Entry]] = []
        defer { Self.release(dropped) }
        return generations.withLock { kept in
            forget(before: version, in: &kept, dropping: &dropped)
            if let entry = kept.recent[key] {
                guard entry.isFresh(at: version, now: now) else {
                    kept.recentSize -= entry.size
                    kept.recent[key] = nil
                    return nil
                }
                return entry
            }
            guard let entry = kept.older.removeValue(forKey: key), entry.isFresh(at: version, now: now) else {
                return nil
            }
            insert(entry, for: key, in: &kept, dropping: &dropped)
            return entry
        }
    }

    func keep(_ entry: Entry, for key: Key) {
        var entry = entry
        entry.keyBytes = key.bytes
        guard entry.size * 2 <= capacity, askedBefore(key) else { return }
        var dropped: [[Key: Entry]] = []
        defer { Self.release(dropped) }
        generations.withLock { kept in
            forget(before: entry.version, in: &kept, dropping: &dropped)
            guard entry.version == kept.newestVersion else { return }
            if let previous = kept.recent.removeValue(forKey: key) { kept.recentSize -= previous.size }
            insert(entry, for: key, in: &kept, dropping: &dropped)
        }
    }

    /// A response for `key` was made lately; if not, it is now.
    private func askedBefore(_ key: Key) -> Bool {
        let hash = key.hashValue
        return asked.withLock { asked in
            let slot = Int(UInt(bitPattern: hash) % UInt(asked.count))
            defer { asked[slot] = hash }
            return asked[slot] == hash
        }
    }

    private func insert(
        _ entry: Entry, for key: Key, in kept: inout Generations, dropping dropped: inout [[Key: Entry]]
    ) {
        if kept.recentSize + entry.size > capacity / 2 {
            dropped.append(kept.older)
            kept.older = kept.recent
            kept.recent = [:]
            kept.recentSize = 0
        }
        kept.recent[key] = entry
        kept.recentSize += entry.size
    }

    /// Once a newer version is seen, every entry is of the past.
    private func forget(before version: Int64, in kept: inout Generations, dropping dropped: inout [[Key: Entry]]) {
        guard version > kept.newestVersion else { return }
        dropped += [kept.recent, kept.older]
        kept = Generations(newestVersion: version)
    }

    /// Dropped entries are freed after the lock, on another thread: a generation is thousands of
    /// responses, and freeing them under the lock would hold up every request.
    private static func release(_ dropped: [[Key: Entry]]) {
        guard dropped.contains(where: { !$0.isEmpty }) else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} }
    }
}

/// Everything a kept response depends on besides the catalogue: the URL, the host, scheme and team address
/// its links are made for, a page visitor's language and cookies, and whether the storefront's script asked.
struct Key: Hashable, Sendable {
    var path: String
    var authority: String?
    var scheme: String
    var forwardedHost: String?
    var teamAddress: String?
    var language: String?
    var cookie: String?
    var requestedWith: String?

    var bytes: Int {
        [path, authority, scheme, forwardedHost, teamAddress, language, cookie, requestedWith].reduce(0) {
            $0 + ($1?.utf8.count ?? 0)
        }
    }

    init(_ request: HTTPRequest) {
        let headers = request.headerFields
        path = request.path ?? ""
        authority = request.authority
        scheme = request.clientScheme
        forwardedHost = headers[.forwardedHost]
        teamAddress = headers[.forwardedPrefix]
        language = headers[.acceptLanguage]
        cookie = headers[.cookie]
        requestedWith = headers[.requestedWith]
    }
}

/// What a route's response may be kept under, besides its URL and the request headers in `Key`.
package struct CachePolicy: Sendable {
    package var keep = true
    /// It shows something that ends by itself (a sign-in in the page's header).
    package var expires: Date?

    package init(keep: Bool = true, expires: Date? = nil) { (self.keep, self.expires) = (keep, expires) }
}

/// Gives a kept response while the catalogue is unchanged, and keeps its routes' successful responses, each with an
/// `ETag` so a client revalidating with the same bytes gets 304. Only for routes whose response depends on nothing but
/// the URL, the catalogue and the headers in `Key`; a response that sets a cookie is never kept, and a team rehearsing
/// hard cases reads its own catalogue, never kept.
package struct ResponseCacheMiddleware<Context: ConnectionRequestContext>: RouterMiddleware {
    let cache: ResponseCache
    let version: @Sendable () async throws -> Int64
    let policy: @Sendable (Context) -> CachePolicy

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .get || request.method == .head, context.rehearsal == nil else {
            return try await next(request, context)
        }
        let version = try await version()
        let key = Key(request.head)
        if let entry = cache.entry(for: key, at: version, now: Date()) {
            return Self.response(headers: entry.headers, body: entry.body, to: request)
        }
        let response = try await next(request, context)
        let policy = policy(context)
        guard response.status == .ok, response.headers[.setCookie] == nil, policy.keep else { return response }
        var headers = response.headers
        let body = try await BodyCollector.bytes(of: response)
        headers[.eTag] = Self.tag(of: body)
        cache.keep(.init(version: version, headers: headers, body: body, expires: policy.expires), for: key)
        return Self.response(headers: headers, body: body, to: request)
    }

    /// The bytes' own digest, so that equal responses have equal tags on every server.
    static func tag(of body: ByteBuffer) -> String {
        let digest = body.withUnsafeReadableBytes { SHA256.hash(data: $0) }
        return "\"" + digest.withUnsafeBytes { Digest.hex(UnsafeRawBufferPointer(rebasing: $0.prefix(12))) } + "\""
    }

    /// The response, or 304 when the client holds these very bytes already.
    static func response(headers: HTTPFields, body: ByteBuffer, to request: Request) -> Response {
        guard let asked = request.headers[.ifNoneMatch], let tag = headers[.eTag], matches(asked, tag) else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        var unchanged = HTTPFields()
        for name in [HTTPField.Name.eTag, .cacheControl, .vary, .contentLocation] {
            if let value = headers[name] { unchanged[name] = value }
        }
        return Response(status: .notModified, headers: unchanged)
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

extension RouterGroup where Context: ConnectionRequestContext {
    /// A group of routes whose responses `cache` may keep and give again (`ResponseCacheMiddleware`),
    /// under the `policy` their context says, while `version` (the catalogue's) stands.
    package func caching(
        in cache: ResponseCache, version: @escaping @Sendable () async throws -> Int64,
        policy: @escaping @Sendable (Context) -> CachePolicy = { _ in CachePolicy() }
    ) -> RouterGroup<Context> {
        group().add(middleware: ResponseCacheMiddleware(cache: cache, version: version, policy: policy))
    }
}

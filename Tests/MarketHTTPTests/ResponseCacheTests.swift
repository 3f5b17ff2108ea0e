import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import MarketHTTPShared

/// What the response cache keeps: a response made a second time, not the first; given again until
/// the catalogue's version moves on.
@Suite struct ResponseCacheTests {
    static func entry(_ text: String, at version: Int64) -> ResponseCache.Entry {
        ResponseCache.Entry(
            version: version, headers: [.contentType: "application/json"], body: ByteBuffer(string: text))
    }

    static func key(_ path: String) -> Key {
        Key(HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: path))
    }

    @Test func aResponseMadeOnceIsNotKeptAndOneMadeAgainIs() {
        let cache = ResponseCache(capacity: 1 << 20)
        let now = Date()
        cache.keep(Self.entry("once", at: 1), for: Self.key("/api/products/1"))
        #expect(cache.entry(for: Self.key("/api/products/1"), at: 1, now: now) == nil)

        cache.keep(Self.entry("twice", at: 1), for: Self.key("/api/products/1"))
        let kept = cache.entry(for: Self.key("/api/products/1"), at: 1, now: now)
        #expect(kept.map { String(buffer: $0.body) } == "twice")
        #expect(cache.entry(for: Self.key("/api/products/2"), at: 1, now: now) == nil)

        #expect(cache.entry(for: Self.key("/api/products/1"), at: 2, now: now) == nil, "the catalogue changed")
        cache.keep(Self.entry("after the change", at: 2), for: Self.key("/api/products/1"))
        let remade = cache.entry(for: Self.key("/api/products/1"), at: 2, now: now)
        #expect(remade.map { String(buffer: $0.body) } == "after the change", "asked for lately, so kept at once")
    }

    @Test func aLongKeyCountsAgainstTheCapacity() {
        let cache = ResponseCache(capacity: 64 * 1024)
        let long = Self.key("/api/products/1?pad=" + String(repeating: "x", count: 40 * 1024))
        let entry = Self.entry("small", at: 1)
        cache.keep(entry, for: long)
        cache.keep(entry, for: long)
        #expect(cache.entry(for: long, at: 1, now: Date()) == nil)
    }

    @Test func aResponseThatShowsASignInIsGivenOnlyUntilItEnds() {
        let cache = ResponseCache(capacity: 1 << 20)
        let now = Date()
        var entry = Self.entry("signed in", at: 1)
        entry.expires = now.addingTimeInterval(60)
        for _ in 0..<2 { cache.keep(entry, for: Self.key("/")) }
        #expect(cache.entry(for: Self.key("/"), at: 1, now: now) != nil)
        #expect(cache.entry(for: Self.key("/"), at: 1, now: now.addingTimeInterval(61)) == nil)
    }
}

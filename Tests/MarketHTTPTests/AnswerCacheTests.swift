import Foundation
import HTTPTypes
import MarketHTTPShared
import NIOCore
import Testing

/// What the answer cache keeps: an answer made a second time, not the first; given again until the
/// catalogue's version moves on.
@Suite struct AnswerCacheTests {
    static func answer(_ text: String, at version: Int64) -> AnswerCache.Answer {
        AnswerCache.Answer(
            version: version, headers: [.contentType: "application/json"], body: ByteBuffer(string: text),
            terms: AnswerTerms(), route: "/api/products/{id}")
    }

    @Test func anAnswerMadeOnceIsNotKeptAndOneMadeAgainIs() {
        let cache = AnswerCache(capacity: 1 << 20)
        let now = Date()
        cache.keep(Self.answer("once", at: 1), for: "/api/products/1")
        #expect(cache.answer(for: "/api/products/1", at: 1, now: now) == nil)
        #expect(!cache.holds("/api/products/1"))

        cache.keep(Self.answer("twice", at: 1), for: "/api/products/1")
        let kept = cache.answer(for: "/api/products/1", at: 1, now: now)
        #expect(kept.map { String(buffer: $0.body) } == "twice")
        #expect(cache.answer(for: "/api/products/2", at: 1, now: now) == nil)

        #expect(cache.answer(for: "/api/products/1", at: 2, now: now) == nil, "the catalogue changed")
        cache.keep(Self.answer("after the change", at: 2), for: "/api/products/1")
        let remade = cache.answer(for: "/api/products/1", at: 2, now: now)
        #expect(remade.map { String(buffer: $0.body) } == "after the change", "asked for lately, so kept at once")
    }
}

import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// Rehearsed faults as the market's own rules, without HTTP.
@Suite struct RehearsalTests {
    static func outcomes(_ rehearsals: Rehearsals, vendorID: Int64, count: Int) async throws -> [StagedFault.Outcome] {
        var outcomes: [StagedFault.Outcome] = []
        for _ in 0..<count { outcomes.append(try #require(try await rehearsals.nextStaging(for: vendorID)).outcome) }
        return outcomes
    }

    @Test func aSeedStagesTheSameFailuresEachTimeTheFaultsAreSetAndOnlyForTheirVendor() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let rehearsals = market.market.rehearsals
        let papri = try #require(try await rehearsals.vendor(identifiedBy: TestMarket.papri.identifier))
        let judy = try #require(try await rehearsals.vendor(identifiedBy: TestMarket.judy.identifier))
        let faults = RehearsedFaults(
            latencyMs: 800, jitterMs: 400, failPercent: 30, status: 500, dropPercent: 20, seed: 7)
        try await rehearsals.setFaults(faults, vendorID: papri.id)
        let first = try await Self.outcomes(rehearsals, vendorID: papri.id, count: 40)
        #expect(first.contains(.fail(status: 500)) && first.contains(.drop) && first.contains(.answer))
        #expect(try await rehearsals.nextStaging(for: judy.id) == nil, "another vendor's requests are untouched")
        try await rehearsals.setFaults(faults, vendorID: papri.id)
        #expect(try await Self.outcomes(rehearsals, vendorID: papri.id, count: 40) == first, "the same again")
        for _ in 0..<20 {
            let delay = try #require(try await rehearsals.nextStaging(for: papri.id)).delay
            #expect(delay >= .milliseconds(400) && delay <= .milliseconds(1200))
        }
        try await rehearsals.setFaults(nil, vendorID: papri.id)
        #expect(try await rehearsals.nextStaging(for: papri.id) == nil)
    }

    /// A market's rehearsals and another server's on the same store, and papri's id, who rehearses
    /// nothing yet.
    static func twoServers() async throws -> (TestMarket, here: Rehearsals, elsewhere: Rehearsals, papri: Int64) {
        let market = try await TestMarket()
        let here = market.market.rehearsals
        let papri = try #require(try await here.vendor(identifiedBy: TestMarket.papri.identifier))
        #expect(try await here.nextStaging(for: papri.id) == nil)
        return (market, here, Rehearsals(store: market.store), papri.id)
    }

    /// Another server, or `openmarket faults set`, changes the faults in the store; this server
    /// follows within a second.
    @Test func faultsSetElsewhereTakeEffectWithinASecond() async throws {
        let (market, here, elsewhere, papri) = try await Self.twoServers()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        try await elsewhere.setFaults(RehearsedFaults(failPercent: 100, status: 502), vendorID: papri)
        let set = ContinuousClock.now
        var staged = try await here.nextStaging(for: papri)
        while staged == nil, ContinuousClock.now - set < .seconds(3) {
            await Task.yield()
            staged = try await here.nextStaging(for: papri)
        }
        #expect(staged?.outcome == .fail(status: 502))
    }

    /// The front desk asks, for every signed-in seller's page it gives, whether the seller rehearses
    /// nothing. While it keeps asking, the answer is read again before it goes stale (otherwise
    /// every request of that moment goes to the router at once), and a fault set elsewhere is still
    /// learned within a second.
    @Test func whileTheDeskAsksTheFaultsAreReadAgainBeforeTheyGoStale() async throws {
        let (market, here, elsewhere, papri) = try await Self.twoServers()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        // Asked as the desk would, every 20 ms, for twice as long as an answer stays fresh. The pause
        // waits for nothing: what is tested is that the answer holds while time passes, so the asks
        // must be spread over it (the wait for the fault set elsewhere, below, is on its condition).
        let start = ContinuousClock.now
        var untrusted = 0
        while ContinuousClock.now - start < Rehearsals.faultsFreshness * 2 {
            if !here.rehearsesNothing(papri) { untrusted += 1 }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(untrusted == 0)

        try await elsewhere.setFaults(RehearsedFaults(failPercent: 100, status: 502), vendorID: papri)
        let set = ContinuousClock.now
        try await waitUntil("the fault set elsewhere is learned", limit: .seconds(3)) {
            !here.rehearsesNothing(papri)
        }
        #expect(ContinuousClock.now - set <= Rehearsals.faultsFreshness + .milliseconds(500))
        #expect(try await here.nextStaging(for: papri)?.outcome == .fail(status: 502))
    }

    @Test(arguments: [
        (RehearsedFaults(latencyMs: 40_000), "latency must be from 0 to 30000 ms"),
        (RehearsedFaults(failPercent: 80, dropPercent: 30), "share of dropped connections must be from 0 to 20"),
        (RehearsedFaults(failPercent: 5, status: 302), "failure status must be an error status, from 400 to 599"),
    ])
    func impossibleFaultsAreRefused(faults: RehearsedFaults, message: String) {
        #expect(throws: MarketError.self) { try faults.validated() }
        do { _ = try faults.validated() } catch { #expect(error.description == message) }
    }
}

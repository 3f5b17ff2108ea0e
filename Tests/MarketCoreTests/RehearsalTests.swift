import Foundation
import MarketCore
import MarketTestSupport
import Testing

/// Rehearsed faults as the market's own rules, without HTTP.
@Suite struct RehearsalTests {
    static func outcomes(_ faults: FaultInjector, vendorID: Int64, count: Int) async throws -> [InjectedFault.Outcome] {
        var outcomes: [InjectedFault.Outcome] = []
        for _ in 0..<count { outcomes.append(try #require(try await faults.nextFault(for: vendorID)).outcome) }
        return outcomes
    }

    @Test func theOperatorSeesTheNewestAnonymousRequestsFirstAndNoMoreThanAreKept() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let records = market.market.records
        let record = { (number: Int) in records.recordAnonymous { Data("request \(number)".utf8) } }
        let shown = { (limit: Int) in
            records.anonymousRequests(limit: limit).map { String(decoding: $0.detail, as: UTF8.self) }
        }
        for number in 1...3 { record(number) }
        #expect(shown(RequestRecords.keptRequests) == ["request 3", "request 2", "request 1"])
        #expect(shown(2) == ["request 3", "request 2"])

        let kept = RequestRecords.keptRequests
        for number in 4...(kept + 5) { record(number) }
        let all = shown(kept)
        #expect(all.count == kept)
        #expect(all.first == "request \(kept + 5)" && all.last == "request 6", "the oldest five are gone")
        #expect(shown(50) == Array(all.prefix(50)))
        #expect(records.anonymousRequests(limit: kept).map(\.id) == Array((6...Int64(kept + 5)).reversed()))
    }

    @Test func aSeedStagesTheSameFailuresEachTimeTheFaultsAreSetAndOnlyForTheirVendor() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let faults = market.market.faults
        let papri = try #require(try await market.service.vendor(.identifier(TestMarket.papri.identifier)))
        let judy = try #require(try await market.service.vendor(.identifier(TestMarket.judy.identifier)))
        let settings = FaultSettings(
            latencyMs: 800, jitterMs: 400, failPercent: 30, status: 500, dropPercent: 20, seed: 7)
        try await faults.setFaults(settings, vendorID: papri.id)
        let first = try await Self.outcomes(faults, vendorID: papri.id, count: 40)
        #expect(first.contains(.fail(status: 500)) && first.contains(.drop) && first.contains(.answer))
        #expect(try await faults.nextFault(for: judy.id) == nil, "another vendor's requests are untouched")
        try await faults.setFaults(settings, vendorID: papri.id)
        #expect(try await Self.outcomes(faults, vendorID: papri.id, count: 40) == first, "the same again")
        for _ in 0..<20 {
            let delay = try #require(try await faults.nextFault(for: papri.id)).delay
            #expect(delay >= .milliseconds(400) && delay <= .milliseconds(1200))
        }
        try await faults.setFaults(nil, vendorID: papri.id)
        #expect(try await faults.nextFault(for: papri.id) == nil)
    }

    @Test func brokenAnswersComeInTheirShareOfTheChosenKindsTheSameWayForTheSameSeed() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let faults = market.market.faults
        let papri = try #require(try await market.service.vendor(.identifier(TestMarket.papri.identifier))).id
        let settings = FaultSettings(brokenPercent: 50, broken: [.null, .numberAsText], seed: 11)
        try await faults.setFaults(settings, vendorID: papri)
        let first = try await Self.outcomes(faults, vendorID: papri, count: 100)
        let broken = first.compactMap { outcome -> [BrokenAnswer]? in
            guard case .broken(let kinds) = outcome else { return nil }
            return kinds
        }
        #expect((30...70).contains(broken.count), "about half of \(first.count)")
        #expect(broken.allSatisfy { Set($0) == [.null, .numberAsText] })
        #expect(Set(broken.map { $0[0] }) == [.null, .numberAsText], "each kind comes first now and then")
        try await faults.setFaults(settings, vendorID: papri)
        #expect(try await Self.outcomes(faults, vendorID: papri, count: 100) == first, "the same again")
    }

    /// Two servers' fault injectors on the same store, on a clock the test moves, and papri's id,
    /// who rehearses nothing yet (as this server has just read).
    static func twoServers() async throws -> (
        TestMarket, clock: TestClock, here: FaultInjector, elsewhere: FaultInjector, papri: Int64
    ) {
        let market = try await TestMarket()
        let clock = TestClock()
        let here = FaultInjector(store: market.store, elapsed: { clock.elapsed })
        let papri = try #require(try await market.service.vendor(.identifier(TestMarket.papri.identifier)))
        #expect(try await here.nextFault(for: papri.id) == nil)
        return (market, clock, here, FaultInjector(store: market.store), papri.id)
    }

    /// Another server, or `openmarket faults set`, changes the faults in the store; this server
    /// follows within a second.
    @Test func faultsSetElsewhereTakeEffectWithinASecond() async throws {
        let (market, clock, here, elsewhere, papri) = try await Self.twoServers()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        try await elsewhere.setFaults(FaultSettings(failPercent: 100, status: 502), vendorID: papri)
        clock.advance(by: 1.1)
        #expect(try await here.nextFault(for: papri)?.outcome == .fail(status: 502))
    }

    /// The teacher's rehearsal for every team: a team meets it beside its own (latencies add up, the class's
    /// failures come first), each team the same sequence for a seed; a vendor that is no team never meets it.
    @Test func everyTeamMeetsTheClassesRehearsalBesideItsOwnAndTheSameWayForASeed() async throws {
        let market = try await TestMarket()
        defer { try? FileManager.default.removeItem(at: market.directory) }
        let faults = market.market.faults
        let one = try await market.service.registerVendor(name: "team 1", asTeam: true).vendor.id
        let two = try await market.service.registerVendor(name: "team 2", asTeam: true).vendor.id
        let papri = try #require(try await market.service.vendor(.identifier(TestMarket.papri.identifier))).id
        try await faults.setClassFaults(FaultSettings(latencyMs: 2000, failPercent: 50, status: 500, seed: 3))
        try await faults.setFaults(FaultSettings(latencyMs: 300, failPercent: 100, status: 418), vendorID: one)
        #expect(try await faults.nextFault(for: papri, asTeam: false) == nil, "no team: untouched")
        var seen: [InjectedFault.Outcome] = []
        for _ in 0..<20 {
            let fault = try #require(try await faults.nextFault(for: one, asTeam: true))
            #expect(fault.delay == .milliseconds(2300) && fault.forEveryTeam)
            seen.append(fault.outcome)
        }
        #expect(
            seen.contains(.fail(status: 500)) && seen.contains(.fail(status: 418)), "the class's first, then its own")
        #expect(seen.allSatisfy { $0 == .fail(status: 500) || $0 == .fail(status: 418) })
        var twos: [InjectedFault.Outcome?] = []
        for _ in 0..<20 { twos.append(try await faults.nextFault(for: two, asTeam: true)?.outcome) }
        #expect(twos.map { $0 == .fail(status: 500) } == seen.map { $0 == .fail(status: 500) }, "the same sequence")
        try await faults.setClassFaults(nil)
        #expect(try await faults.nextFault(for: two, asTeam: true) == nil)
        #expect(try await faults.nextFault(for: one, asTeam: true)?.forEveryTeam == false)
    }

    @Test(arguments: [
        (FaultSettings(latencyMs: 40_000), "latency must be from 0 to 30000 ms"),
        (FaultSettings(failPercent: 80, dropPercent: 30), "share of dropped connections must be from 0 to 20"),
        (FaultSettings(failPercent: 5, status: 302), "failure status must be an error status, from 400 to 599"),
    ])
    func impossibleFaultsAreRefused(faults: FaultSettings, message: String) {
        #expect(throws: MarketError.self) { try faults.validated() }
        do { _ = try faults.validated() } catch { #expect(error.description == message) }
    }
}

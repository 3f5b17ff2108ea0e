import Foundation
import MarketModel
import Synchronization

/// Stages the failures each vendor asks for on their own requests (`FaultSettings`), and those the teacher asks for
/// every team of the class at once. Settings live in the store, so they hold across servers; those set elsewhere
/// (another server, the command) take effect here within `freshness`.
///
/// A team meets both: the latencies add up, and a request first meets the class's failures, then, if it got through
/// them, the team's own. Each team's requests are counted apart for each setting, so that a seed gives every team
/// the same sequence.
public final class FaultInjector: Sendable {
    public static let freshness: Duration = .seconds(1)

    /// Whose settings: a vendor's own, or the teacher's for every team.
    enum Rehearser: Hashable, Sendable {
        case vendor(Int64)
        case everyTeam
    }

    let store: any MarketStore
    /// Time as it passes (never set back), for how long what was read is trusted.
    let elapsed: @Sendable () -> ContinuousClock.Instant
    /// The wall clock, for when hard cases were set.
    let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct State {
        var settings: [Rehearser: CachedFaults] = [:]
        /// Requests given a fault by each setting since it was read unchanged, by the vendor that sent them.
        var served: [Rehearser: [Int64: UInt64]] = [:]
    }

    public init(
        store: any MarketStore, elapsed: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.elapsed = elapsed
        self.now = now
    }

    public func faults(of vendorID: Int64) async throws -> FaultSettings? { try await read(.vendor(vendorID)) }

    /// What the teacher rehearses for every team, or nil.
    public func classFaults() async throws -> FaultSettings? { try await read(.everyTeam) }

    /// Sets a vendor's faults (nil or all off clears them); checked first.
    public func setFaults(_ faults: FaultSettings?, vendorID: Int64) async throws {
        try await set(faults, for: .vendor(vendorID))
    }

    /// Sets the faults every team meets (nil or all off clears them); checked first.
    public func setClassFaults(_ faults: FaultSettings?) async throws { try await set(faults, for: .everyTeam) }

    /// The fault for a vendor's next request, or nil when neither they nor, for a team (`asTeam`), the class rehearse
    /// any. Requests are counted from when the faults were set (or last changed), so a seed replays the same sequence.
    public func nextFault(for vendorID: Int64, asTeam: Bool = false) async throws -> InjectedFault? {
        let own = try await nextFault(from: .vendor(vendorID), for: vendorID)
        guard asTeam, var everyTeam = try await nextFault(from: .everyTeam, for: vendorID), everyTeam.doesAnything
        else { return own }
        everyTeam.forEveryTeam = true
        guard let own else { return everyTeam }
        return InjectedFault(
            delay: everyTeam.delay + own.delay, outcome: everyTeam.outcome == .answer ? own.outcome : everyTeam.outcome,
            bodyTrickle: max(everyTeam.bodyTrickle, own.bodyTrickle), forEveryTeam: true)
    }

    /// The hard cases a vendor's reads answer with (their own and, for a team, the class's), or nil when there are
    /// none. The first seed set among them makes them repeat.
    public func hardCases(for vendorID: Int64, asTeam: Bool = false) async throws -> CatalogueRehearsal? {
        let own = try await current(.vendor(vendorID))
        let everyTeam = asTeam ? try await current(.everyTeam) : nil
        let chosen = Set((own?.hardCases ?? []) + (everyTeam?.hardCases ?? []))
        guard !chosen.isEmpty else { return nil }
        let rehearsing = [own, everyTeam].compactMap { $0 }.filter { !$0.hardCases.isEmpty }
        return CatalogueRehearsal(
            cases: HardCase.allCases.filter(chosen.contains), seed: rehearsing.lazy.compactMap(\.seed).first ?? 0,
            vendorID: vendorID,
            since: rehearsing.compactMap(\.hardCasesSince).min().map(Date.init(timeIntervalSince1970:)) ?? .distantPast,
            classCases: Set(everyTeam?.hardCases ?? []))
    }

    private func read(_ rehearser: Rehearser) async throws -> FaultSettings? {
        let stored =
            switch rehearser {
            case .vendor(let id): try await store.faults(vendorID: id)
            case .everyTeam: try await store.classFaults()
            }
        return stored.flatMap { try? JSONDecoder().decode(FaultSettings.self, from: $0) }
    }

    /// Hard cases keep the moment they were first set while they stay on, so that the products a team registers
    /// under them keep showing whatever else changes.
    private func set(_ faults: FaultSettings?, for rehearser: Rehearser) async throws {
        var faults = try faults.map { try $0.validated() }.flatMap { $0.isOff ? nil : $0 }
        if let chosen = faults, !chosen.hardCases.isEmpty {
            let earlier = try await read(rehearser).flatMap { $0.hardCases.isEmpty ? nil : $0.hardCasesSince }
            faults?.hardCasesSince = earlier ?? now().timeIntervalSince1970
        } else {
            faults?.hardCasesSince = nil
        }
        let encoded = try faults.map { try JSONEncoder().encode($0) }
        switch rehearser {
        case .vendor(let id): try await store.setFaults(encoded, vendorID: id)
        case .everyTeam: try await store.setClassFaults(encoded)
        }
        let readAt = elapsed()
        state.withLock {
            $0.settings[rehearser] = CachedFaults(faults: faults, readAt: readAt)
            $0.served[rehearser] = nil
        }
    }

    /// The settings as last read, read again when older than `freshness`.
    private func current(_ rehearser: Rehearser) async throws -> FaultSettings? {
        let start = elapsed()
        if state.withLock({ $0.settings[rehearser].map { start - $0.readAt > Self.freshness } ?? true }) {
            let read = try await read(rehearser)
            // Kept unless set here meanwhile; the counts of requests served go on while the faults are unchanged.
            state.withLock { state in
                if let cached = state.settings[rehearser], cached.readAt > start { return }
                if state.settings[rehearser]?.faults != read { state.served[rehearser] = nil }
                state.settings[rehearser] = CachedFaults(faults: read, readAt: start)
            }
        }
        return state.withLock { $0.settings[rehearser]?.faults }
    }

    private func nextFault(from rehearser: Rehearser, for vendorID: Int64) async throws -> InjectedFault? {
        guard try await current(rehearser) != nil else { return nil }
        return state.withLock { state in
            guard let setting = state.settings[rehearser]?.faults else { return nil }
            let served = state.served[rehearser, default: [:]][vendorID, default: 0]
            state.served[rehearser, default: [:]][vendorID] = served + 1
            return setting.fault(forRequest: served)
        }
    }

    private struct CachedFaults: Sendable {
        var faults: FaultSettings?
        var readAt: ContinuousClock.Instant
    }
}

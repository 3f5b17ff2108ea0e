import Foundation
import MarketModel

/// Failures a vendor asks the market to stage for their own app's requests, to try the app against a slow or
/// failing server. With a seed, the same settings stage the same failures for the same sequence of requests.
public struct FaultSettings: Codable, Sendable, Equatable {
    public static let longest = 30_000

    public var latencyMs: Int
    public var jitterMs: Int
    public var failPercent: Int
    public var status: Int
    public var dropPercent: Int
    public var slowBodyMs: Int
    public var brokenPercent: Int
    /// The kinds of broken answers to choose from; empty means every kind.
    public var broken: [BrokenAnswer]
    /// Catalogues the team's reads answer with in place of the market's.
    public var hardCases: [HardCase]
    /// When the hard cases were set, in seconds since 1970: the team's products registered since show among them.
    /// The market sets it.
    public var hardCasesSince: Double?
    public var seed: UInt64?

    public init(
        latencyMs: Int = 0, jitterMs: Int = 0, failPercent: Int = 0, status: Int = 503, dropPercent: Int = 0,
        slowBodyMs: Int = 0, brokenPercent: Int = 0, broken: [BrokenAnswer] = [], hardCases: [HardCase] = [],
        seed: UInt64? = nil
    ) {
        self.latencyMs = latencyMs
        self.jitterMs = jitterMs
        self.failPercent = failPercent
        self.status = status
        self.dropPercent = dropPercent
        self.slowBodyMs = slowBodyMs
        self.brokenPercent = brokenPercent
        self.broken = broken
        self.hardCases = hardCases
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case latencyMs = "latency_ms", jitterMs = "jitter_ms", failPercent = "fail_percent", status
        case dropPercent = "drop_percent", slowBodyMs = "slow_body_ms", brokenPercent = "broken_percent", broken
        case hardCases = "hard_cases", hardCasesSince = "hard_cases_since", seed
    }

    /// Every setting may be left out of the JSON; what is left out is off.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys, orElse off: Int = 0) throws -> Int {
            try values.decodeIfPresent(Int.self, forKey: key) ?? off
        }
        try self.init(
            latencyMs: number(.latencyMs), jitterMs: number(.jitterMs), failPercent: number(.failPercent),
            status: number(.status, orElse: 503), dropPercent: number(.dropPercent), slowBodyMs: number(.slowBodyMs),
            brokenPercent: number(.brokenPercent),
            broken: BrokenAnswer.named(values.decodeIfPresent([String].self, forKey: .broken) ?? []),
            hardCases: HardCase.named(values.decodeIfPresent([String].self, forKey: .hardCases) ?? []),
            seed: values.decodeIfPresent(UInt64.self, forKey: .seed))
        hardCasesSince = try values.decodeIfPresent(Double.self, forKey: .hardCasesSince)
    }

    public func validated() throws(MarketError) -> FaultSettings {
        func check(_ ok: Bool, _ field: MarketField, _ rule: Rule) throws(MarketError) {
            guard ok else { throw MarketError(.invalid, field: field, rule: rule) }
        }
        try check((0...Self.longest).contains(latencyMs), .latency, .between(0, Self.longest, unit: " ms"))
        try check((0...latencyMs).contains(jitterMs), .jitter, .upToLatency(milliseconds: latencyMs))
        try check((0...100).contains(failPercent), .failPercent, .between(0, 100))
        try check((400...599).contains(status), .failStatus, .errorStatus)
        try check((0...100 - failPercent).contains(dropPercent), .dropPercent, .between(0, 100 - failPercent))
        try check((0...Self.longest).contains(slowBodyMs), .slowBody, .between(0, Self.longest, unit: " ms"))
        let left = 100 - failPercent - dropPercent
        try check((0...left).contains(brokenPercent), .brokenPercent, .between(0, left))
        return self
    }

    /// What happens to the request with this number (counted from 0 since the faults were set).
    public func fault(forRequest number: UInt64) -> InjectedFault {
        var random = SplitMix64(seed: (seed ?? UInt64.random(in: .min ... .max)) &+ number &* 0x9E37_79B9_7F4A_7C15)
        let jitter = jitterMs == 0 ? 0 : Int(random.next() % UInt64(2 * jitterMs + 1)) - jitterMs
        let outcome: InjectedFault.Outcome =
            switch Int(random.next() % 100) {
            case ..<failPercent: .fail(status: status)
            case ..<(failPercent + dropPercent): .drop
            case ..<(failPercent + dropPercent + brokenPercent):
                .broken((broken.isEmpty ? BrokenAnswer.allCases : broken).shuffled(using: &random))
            default: .answer
            }
        return InjectedFault(
            delay: .milliseconds(latencyMs + jitter), outcome: outcome, bodyTrickle: .milliseconds(slowBodyMs))
    }

    public var isOff: Bool {
        latencyMs == 0 && failPercent == 0 && dropPercent == 0 && slowBodyMs == 0 && brokenPercent == 0
            && hardCases.isEmpty
    }
}

/// What a vendor's fault settings do to one request.
public struct InjectedFault: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case answer, fail(status: Int)
        /// The connection closes without an answer.
        case drop
        /// The market answers, and its answer is broken in the first of these ways that fits it.
        case broken([BrokenAnswer])
    }

    public var delay: Duration
    public var outcome: Outcome
    /// How long the answer's body takes to arrive; zero sends it at once.
    public var bodyTrickle: Duration
    /// The teacher's rehearsal for every team shaped it, not (only) the vendor's own.
    public var forEveryTeam: Bool

    public init(delay: Duration, outcome: Outcome, bodyTrickle: Duration, forEveryTeam: Bool = false) {
        self.delay = delay
        self.outcome = outcome
        self.bodyTrickle = bodyTrickle
        self.forEveryTeam = forEveryTeam
    }

    /// It changes the request in any way.
    public var doesAnything: Bool { delay > .zero || outcome != .answer || bodyTrickle > .zero }

    /// The request gets the rehearsed failure instead of the market's answer.
    public var failsOnPurpose: Bool {
        switch outcome {
        case .fail, .drop: true
        case .answer, .broken: false
        }
    }
}

/// A small, fast, seedable generator: the same seed gives the same numbers on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation

/// How many wrong secrets are let through before a wait, and how the wait grows. A classroom
/// behind one address (one NAT) shares that address's allowance: its operator may raise it.
public struct SecretThrottle: Sendable, Equatable {
    /// Wrong secrets allowed from one client address before it waits.
    public var perAddress: Int
    /// The first wait once the allowance is spent; each further failure doubles it, up to `longestWait`.
    public var firstWait: Duration

    public init(perAddress: Int = 20, firstWait: Duration = .seconds(15)) {
        self.perAddress = perAddress
        self.firstWait = firstWait
    }

    /// Wrong secrets allowed for one vendor, product or operator: a person mistypes a few times.
    static let perSubject = 5
    /// Failures older than this are forgotten.
    static let memory: TimeInterval = 3600
    static let longestWait: TimeInterval = 15 * 60
    static let clientPrefix = "client:"

    /// The wait after `failures` wrong secrets under `key`: none within its allowance.
    func wait(after failures: Int, under key: String) -> TimeInterval {
        let over = failures - (key.hasPrefix(Self.clientPrefix) ? perAddress : Self.perSubject)
        guard over >= 0 else { return 0 }
        return min(firstWait.seconds * pow(2, Double(min(over, 30))), Self.longestWait)
    }
}

extension MarketService {
    /// Runs a secret check for `subject` (a vendor or product, when known) unless it or `client` has had too many
    /// wrong secrets lately. Clients are counted too, so that one cannot guess through many identifiers.
    func throttled<T>(_ subject: String?, client: String?, _ check: () async throws -> T) async throws -> T {
        let now = now()
        let since = now.addingTimeInterval(-SecretThrottle.memory)
        let keys = [subject, client.map { SecretThrottle.clientPrefix + $0 }].compactMap { $0 }
        let counted = try await store.failedAttempts(under: keys, since: since)
        let waitUntil = counted.compactMap { attempts -> Date? in
            let wait = secretThrottle.wait(after: attempts.count, under: attempts.key)
            return wait > 0 ? attempts.last.addingTimeInterval(wait) : nil
        }.max()
        if let waitUntil, waitUntil > now {
            throw MarketError.throttled(retryAfter: Int(waitUntil.timeIntervalSince(now).rounded(.up)))
        }
        do {
            let result = try await check()
            if let subject, counted.contains(where: { $0.key == subject }) {
                try await store.clearFailedAttempts(under: subject)
            }
            return result
        } catch let error as MarketError where error == .wrongCredentials || error == .wrongProductSecret {
            try await store.recordFailedAttempt(under: keys, at: now, since: since)
            throw error
        }
    }

    static func vendorSubject(_ identifier: String) -> String { "vendor:" + identifier }
    static func productSubject(_ id: Int64) -> String { "product:\(id)" }
}

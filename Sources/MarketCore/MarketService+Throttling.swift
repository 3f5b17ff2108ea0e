import Foundation

/// Where a request comes from, as the adapter in front of the service saw it. Wrong secrets are
/// counted per client as well as per vendor or product, so that one client cannot guess through
/// many identifiers.
public enum MarketClient {
    @TaskLocal public static var address: String?
}

/// How many wrong secrets are let through before a wait, and how the wait grows.
enum SecretThrottle {
    /// Failures older than this are forgotten.
    static let memory: TimeInterval = 3600
    static let longestWait: TimeInterval = 15 * 60

    /// Wrong secrets allowed before waiting: a person mistypes a few times, a client running many
    /// apps' tests more often.
    static func allowance(for key: String) -> Int {
        key.hasPrefix(clientPrefix) ? 20 : 5
    }

    static let clientPrefix = "client:"

    static let firstWait: TimeInterval = 15

    /// The wait after `failures` wrong secrets under `key`: none within the allowance, then 15
    /// seconds, doubling with each further failure up to a quarter of an hour.
    static func wait(after failures: Int, under key: String) -> TimeInterval {
        let over = failures - allowance(for: key)
        guard over >= 0 else { return 0 }
        return min(firstWait * pow(2, Double(min(over, 30))), longestWait)
    }
}

extension MarketService {
    /// Runs a secret check for `subject` (a vendor or a product, when known) unless it or this client has had
    /// too many wrong secrets lately, counting a wrong one and forgetting the count after a right one.
    func throttled<T>(_ subject: String?, _ check: () async throws -> T) async throws -> T {
        let now = now()
        let since = now.addingTimeInterval(-SecretThrottle.memory)
        let keys = [subject].compactMap { $0 } + (MarketClient.address.map { [SecretThrottle.clientPrefix + $0] } ?? [])
        let counted = try await store.failedAttempts(under: keys, since: since)
        let waitUntil = counted.compactMap { attempts -> Date? in
            let wait = SecretThrottle.wait(after: attempts.count, under: attempts.key)
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

import Foundation
import MarketModel

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
    /// What a key counts failures of: a sender, or a vendor, product or operator; a person's sign-ins apart.
    static let clientPrefix = "client:", vendorPrefix = "vendor:", productPrefix = "product:"
    static let operatorPrefix = "operator:", signInPrefix = "sign-in "

    /// Whose failures the key counts.
    static func cause(of key: String) -> ThrottleCause {
        let key = key.hasPrefix(signInPrefix) ? key.dropFirst(signInPrefix.count) : key[...]
        if key.hasPrefix(clientPrefix) { return key.contains(" team:") ? .teamAtAddress : .address }
        if key.hasPrefix(productPrefix) { return .product }
        return key.hasPrefix(operatorPrefix) ? .operator : .vendor
    }

    /// The wait after `failures` wrong secrets under `key`: none within its allowance.
    func wait(after failures: Int, under key: String) -> TimeInterval {
        let isSender = [.address, .teamAtAddress].contains(Self.cause(of: key))
        let over = failures - (isSender ? perAddress : Self.perSubject)
        guard over >= 0 else { return 0 }
        return min(firstWait.seconds * pow(2, Double(min(over, 30))), Self.longestWait)
    }
}

/// Whose wrong secrets made a request wait.
public enum ThrottleCause: String, Sendable, Codable {
    /// Wrong secrets for one vendor's identifier, one product, or one operator's name.
    case vendor, product, `operator`
    /// Wrong secrets from one client address, across the vendors that are not teams of a class.
    case address
    /// Wrong secrets of one team from one client address: a class behind one address shares nothing else.
    case teamAtAddress
}

/// Who checks a secret, which decides whose count its mistakes go on: an app's wrong secrets make that app's requests
/// wait, never a person signing in with the right secret (to read the inspector and see why); a person's wrong
/// sign-ins make their sign-ins wait.
public enum SecretUse: Sendable {
    case appRequest, signIn
}

extension MarketService {
    /// Runs a secret check for `subject` (a vendor, product or operator, when known) unless it or its sender has had
    /// too many wrong secrets lately. Senders are counted too, so that one cannot guess through many identifiers: by
    /// address, and by team at that address when the request came through a team address or `team` (the vendor
    /// the subject names) is a team of a class, so that a team waits for its own mistakes, not its class's. The same
    /// wrong `secret` sent again under a key teaches a guesser nothing and is not counted again: an app that tests its
    /// wrong-secret path on every run is never made to wait for it.
    func throttled<T>(
        _ subject: String?, from sender: RequestSender?, team: Vendor? = nil, secret: String,
        use: SecretUse = .appRequest, _ check: () async throws -> T
    ) async throws -> T {
        let now = now()
        let since = now.addingTimeInterval(-SecretThrottle.memory)
        let senderKey = sender.map { sender in
            let team = sender.team ?? team.flatMap { $0.isTeam ? $0.id : nil }
            return SecretThrottle.clientPrefix + sender.address + (team.map { " team:\($0)" } ?? "")
        }
        let prefix = use == .signIn ? SecretThrottle.signInPrefix : ""
        let subjectKey = subject.map { prefix + $0 }
        let keys = [subjectKey, senderKey.map { prefix + $0 }].compactMap { $0 }
        let counted = try await store.failedAttempts(under: keys, since: since)
        let waits = counted.compactMap { attempts -> (until: Date, attempts: FailedAttempts)? in
            let wait = secretThrottle.wait(after: attempts.count, under: attempts.key)
            return wait > 0 ? (attempts.last.addingTimeInterval(wait), attempts) : nil
        }
        if let longest = waits.max(by: { $0.until < $1.until }), longest.until > now {
            throw MarketError.throttled(
                retryAfter: Int(longest.until.timeIntervalSince(now).rounded(.up)),
                cause: SecretThrottle.cause(of: longest.attempts.key), failures: longest.attempts.count)
        }
        do {
            let result = try await check()
            if let subjectKey, counted.contains(where: { $0.key == subjectKey }) {
                try await store.clearFailedAttempts(under: subjectKey)
            }
            return result
        } catch let error as MarketError where error == .wrongCredentials || error == .wrongProductSecret {
            // By what it was tried on too: one secret tried on many identifiers from one address is many guesses.
            let tried = SecretHasher.normalized(secret)
            let new = keys.filter { wrongSecrets.remember(wrongSecrets.tag($0, subject ?? "", tried), at: now) }
            if !new.isEmpty { try await store.recordFailedAttempt(under: new, at: now, since: since) }
            throw error
        }
    }

    static func vendorSubject(_ identifier: String) -> String { SecretThrottle.vendorPrefix + identifier }
    static func productSubject(_ id: Int64) -> String { SecretThrottle.productPrefix + String(id) }
    static func operatorSubject(_ name: String) -> String { SecretThrottle.operatorPrefix + name }
}

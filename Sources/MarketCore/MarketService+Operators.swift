import Foundation
import MarketModel

/// The people who run a market: they see every vendor, register and re-key them, take any product
/// off the market and empty it, and every such act is recorded with who did it and when.
extension MarketService {
    /// Registers an operator and returns their secret, shown this once.
    public func registerOperator(name: String, secret: String? = nil) async throws -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw MarketError.missing(.name) }
        if let secret { try VendorSecret.validateChosen(secret) }
        let secret = secret ?? VendorSecret.generate()
        try await store.insertOperator(name: name, secretHash: try await hasher.hash(secret), at: now())
        return secret
    }

    /// The operator these credentials prove, or `wrongCredentials`; throttled like vendors' secrets.
    public func authenticateOperator(name: String, secret: String, from sender: RequestSender?) async throws
        -> MarketOperator
    {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let secret = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await throttled(Self.operatorSubject(name), from: sender, secret: secret, use: .signIn) {
            let hash = try await store.operatorSecretHash(name: name)
            // An unknown name costs the same bcrypt work as a wrong secret.
            let matches = try await hasher.verify(secret, against: hash ?? SecretHasher.decoy)
            guard hash != nil, matches else { throw MarketError.wrongCredentials }
            return MarketOperator(name: name)
        }
    }

    public func vendorOverview(for _: MarketOperator) async throws -> [VendorOverview] {
        try await store.vendorOverview()
    }

    public func operatorLog(for _: MarketOperator, limit: Int = 100) async throws -> [OperatorAction] {
        try await store.operatorActions(limit: limit)
    }

    public func registerVendor(
        name: String, vendorID: Int64? = nil, by actor: MarketOperator
    ) async throws -> (vendor: Vendor, secret: String) {
        let registered = try await registerVendor(name: name, id: vendorID, asTeam: true)
        try await record(actor, .registeredVendor(name: registered.vendor.name, id: registered.vendor.id))
        return registered
    }

    public func replaceSecret(ofVendor identifier: String, by actor: MarketOperator) async throws -> String {
        let secret = try await replaceSecret(ofVendor: identifier)
        try await record(actor, .gaveNewSecret(identifier: identifier.lowercased()))
        return secret
    }

    /// Sets the faults every team of the class meets beside its own (nil switches them off), as `faults` stages them.
    public func rehearseForEveryTeam(
        _ settings: FaultSettings?, with faults: FaultInjector, by actor: MarketOperator
    ) async throws {
        try await faults.setClassFaults(settings)
        let set = try await faults.classFaults()
        try await record(actor, set.map { .rehearsedForEveryTeam($0) } ?? .endedRehearsalForEveryTeam)
    }

    /// Takes any product off the market, whoever sells it; its pictures go with the next sweep.
    public func removeProduct(id: Int64, by actor: MarketOperator) async throws -> Product {
        let removed = try await delete(id)
        try await record(actor, .removedProduct(id: id, name: removed.name, vendor: removed.vendor.name))
        return removed
    }

    /// Hides a product from every list and detail of every dialect, whoever sells it, and returns its
    /// name; nobody can change or delete it while hidden, and showing it again puts it back as it was.
    public func setProductHidden(_ hidden: Bool, id: Int64, by actor: MarketOperator) async throws -> String {
        guard let name = try await store.setProductHidden(hidden, id: id) else { throw MarketError.productNotFound(id) }
        try await record(actor, hidden ? .hidProduct(id: id, name: name) : .showedProduct(id: id, name: name))
        return name
    }

    public func hiddenProducts(for _: MarketOperator) async throws -> [ProductLabel] {
        try await store.hiddenProducts()
    }

    /// Deletes every product at once and restarts numbering at 1, as in a new market; vendors, secrets, sign-ins stay.
    public func emptyMarket(by actor: MarketOperator) async throws -> Int {
        let removed = try await store.deleteEveryProduct()
        try await record(actor, .emptiedMarket(products: removed))
        return removed
    }

    /// Empties the market and fills it again with `fillWithDemo` (the demo catalogue, which only the
    /// composition root knows); both steps are recorded.
    public func resetMarket(
        by actor: MarketOperator, fillWithDemo: () async throws -> Int
    ) async throws -> (removed: Int, added: Int) {
        let removed = try await emptyMarket(by: actor)
        let added = try await fillWithDemo()
        try await record(actor, .filledMarket(products: added))
        return (removed, added)
    }

    func record(_ actor: MarketOperator, _ act: OperatorAction.Act) async throws {
        try await store.recordOperatorAction(OperatorAction(operatorName: actor.name, act: act, at: now()))
    }
}

/// Someone who runs the market, proven by their secret.
public struct MarketOperator: Sendable, Equatable, Codable {
    public let name: String

    /// Whoever ran an `openmarket` command on the market's machine: the console's log names them by their login.
    public static var shell: MarketOperator {
        MarketOperator(name: "shell (\(ProcessInfo.processInfo.environment["USER"] ?? "\(getuid())"))")
    }
}

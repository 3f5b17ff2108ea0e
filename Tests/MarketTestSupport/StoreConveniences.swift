import MarketCore
import MarketModel

extension ProductStore {
    /// A page as listed, of the products `search` finds (all of them when nil).
    public func products(_ page: PageRequest, matching search: String?) async throws -> Page<ProductSummary> {
        try await products(page, matching: search, arranged: .asListed)
    }
}

extension OperatorAction.Act {
    /// As the command and the log's older entries say it.
    public var english: String {
        switch self {
        case .registeredVendor(let name, let id): "registered vendor \(name) (vendor_id \(id))"
        case .gaveNewSecret(let identifier): "gave vendor \(identifier) a new secret"
        case .removedProduct(let id, let name, let vendor): "removed product \(id) “\(name)” of \(vendor)"
        case .hidProduct(let id, let name): "hid product \(id) “\(name)”"
        case .showedProduct(let id, let name): "showed product \(id) “\(name)” again"
        case .emptiedMarket(let products): "emptied the market (\(products) products)"
        case .filledMarket(let products): "filled the market with \(products) demo products"
        case .rehearsedForEveryTeam: "set a rehearsal for every team"
        case .endedRehearsalForEveryTeam: "switched the rehearsal for every team off"
        case .said(let text): text
        }
    }
}

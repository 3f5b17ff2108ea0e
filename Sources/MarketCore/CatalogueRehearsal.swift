import Foundation
import MarketModel
import Synchronization

/// The hard cases one team's request is answered with, and, once answered, which of them shaped the answer.
public final class CatalogueRehearsal: Sendable {
    public let cases: [HardCase]
    public let seed: UInt64
    /// The team whose products registered `since` show among the cases': its writes keep working, while what it
    /// had before is the market's, which the cases replace.
    public let vendorID: Int64
    public let since: Date
    /// The cases the teacher set for every team.
    public let classCases: Set<HardCase>
    private let met = Mutex<(cases: Set<HardCase>, repeated: Int)>(([], 0))

    public init(
        cases: [HardCase], seed: UInt64, vendorID: Int64, since: Date = .distantPast, classCases: Set<HardCase> = []
    ) {
        (self.cases, self.seed, self.vendorID, self.since) = (cases, seed, vendorID, since)
        self.classCases = classCases
    }

    /// The cases that shaped the answer, in the order of `HardCase.allCases`.
    public var shaped: [HardCase] { met.withLock { met in HardCase.allCases.filter(met.cases.contains) } }
    /// Some of them were the teacher's for every team.
    public var shapedForEveryTeam: Bool { met.withLock { !$0.cases.isDisjoint(with: classCases) } }
    /// How many items the answer gave again that an earlier page had given (`shifting`).
    public var repeatedItems: Int { met.withLock { $0.repeated } }

    var catalogue: RehearsedCatalogue { RehearsedCatalogue(cases: cases, seed: seed) }

    func note(_ cases: some Sequence<HardCase>, repeated: Int = 0) {
        met.withLock {
            $0.cases.formUnion(cases)
            $0.repeated += repeated
        }
    }
}

extension MarketService {
    /// A page of the rehearsed catalogue in the order `page` asks for; a search finds the named products only.
    func products(
        _ page: PageRequest, search term: String, rehearsing rehearsal: CatalogueRehearsal
    ) async throws -> Page<ProductSummary> {
        var page = page
        page.after = nil
        let catalogue = rehearsal.catalogue
        let own = try await ownProducts(of: rehearsal, newestFirst: page.order == .newestFirst)
        let caseProducts = catalogue.caseProducts
        let per = page.itemsPerPage
        rehearsal.note(catalogue.cases.filter(\.shapesPaging))
        if !term.isEmpty {
            let named = (own + caseProducts.map { $0.product(catalogue).summary }).filter {
                $0.name.lowercased().contains(term)
            }
            let shown = Array(named.dropFirst(page.offset).prefix(per))
            rehearsal.note(shown.compactMap { HardCaseProduct(id: $0.id)?.hardCase })
            return Page(request: page, totalCount: named.count, items: shown)
        }
        let fillers = catalogue.fillerCount(itemsPerPage: per, others: own.count + caseProducts.count)
        let total = own.count + caseProducts.count + fillers
        let repeatedPerPage = catalogue.repeatedPerPage(itemsPerPage: per)
        let repeated = repeatedPerPage * (page.number - 1)
        let start = page.offset - repeated
        // In the list's order: new products where the dialect lists them (on top, or last), then the cases' own.
        let ownFirst = page.order == .newestFirst
        var items: [ProductSummary] = []
        for index in max(0, start)..<max(0, start, min(start + per, total)) {
            var position = index
            if ownFirst, position < own.count {
                items.append(own[position])
                continue
            }
            if ownFirst { position -= own.count }
            if position < caseProducts.count {
                items.append(caseProducts[position].product(catalogue).summary)
                rehearsal.note([caseProducts[position].hardCase])
            } else if position < caseProducts.count + fillers {
                items.append(catalogue.filler(position - caseProducts.count).summary)
            } else {
                items.append(own[position - caseProducts.count - fillers])
            }
        }
        if repeated > 0, !items.isEmpty { rehearsal.note([], repeated: min(items.count, repeatedPerPage)) }
        return Page(request: page, totalCount: total + repeated, items: items)
    }

    /// The product as the rehearsed catalogue holds it: a case's own, a filler one, or the market's.
    func product(id: Int64, rehearsing rehearsal: CatalogueRehearsal) async throws -> Product {
        let catalogue = rehearsal.catalogue
        guard let product = catalogue.product(id: id) else { return try await product(id: id) }
        let hardCase = HardCaseProduct(id: id)?.hardCase
        if let hardCase { rehearsal.note([hardCase]) }
        guard hardCase != .vanishing else { throw MarketError.productNotFound(id) }
        return product
    }

    /// A hard case's picture: given afresh each time, so that a slow one stays slow and a missing one is asked again.
    public static func isRehearsalPicture(_ key: String) -> Bool { RehearsalPicture(key: key) != nil }

    /// The rehearsal's picture with this key, drawn and kept the first time it is asked for; nil for the missing one.
    func rehearsalPicture(_ picture: RehearsalPicture, key: String) async throws -> ImageContent? {
        if picture == .slow { try await Task.sleep(for: RehearsalPicture.slowDelay) }
        guard let drawn = picture.drawn else { return nil }
        if let stored = try await images.content(forKey: key) { return stored }
        let image: EncodedImage
        do {
            image = try await imageWork.admitting(1) { steps in try await imageProcessor.draw(drawn, in: steps) }
        } catch let rejection as ImageRejection {
            // This libvips cannot write the format (HEIC needs libheif's HEVC encoder).
            throw MarketError(.unavailable, .rule(rejection.rule))
        }
        try await images.put(image.data, key: key)
        return .bytes(image.data)
    }

    private func ownProducts(of rehearsal: CatalogueRehearsal, newestFirst: Bool) async throws -> [ProductSummary] {
        let own = try await store.products(
            PageRequest(number: 1, itemsPerPage: PageRequest.maximumItemsPerPage), ofVendor: rehearsal.vendorID
        ).items.filter { $0.createdAt >= rehearsal.since }
        return newestFirst ? own : own.reversed()
    }
}

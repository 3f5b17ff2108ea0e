import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// A term that lies inside one word is counted and paged through the words the stores keep. What
/// they find must stay what a substring search finds, whoever shares the word, whatever changed.
@Suite struct WordTotalsTests {
    typealias Shelf = StoreContractTests.Shelf

    @Test(arguments: StoreKind.allCases)
    func aTermInsideOneWordIsFoundAsASubstringThroughEditsHidesAndDeletes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var shelf = try await Self.stocked(store, fillers: 0)
            // Held by one word ("wireless", "charger", "블루투스"), by several ("lamp", "스피커"), across
            // words, with a line end, in no word.
            let terms = [
                "wireless", "ireless", "charger", "블루투스", "블루투스스피커", "빈티지", "lamp", "lamps", "스피커",
                "lamp for", "charger\n", "s\nlamp", "nothing", "less lamp",
            ]
            try await Self.expectFoundThroughChanges(terms, paged: ["lamp", "wireless", "블루투스"], store, &shelf, kind)
        }
    }

    /// Among many products that hold none of them, a term of two or three characters is rare enough
    /// that a page is taken from the products of the few words that hold it.
    @Test(arguments: StoreKind.allCases)
    func aShortTermInsideAFewWordsIsFoundAsASubstringThroughEditsHidesAndDeletes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var shelf = try await Self.stocked(store, fillers: 150)
            // Inside one word ("손가", "ps"), two ("가방", "amp"), in a word of its own ("가방"), across
            // words or a line end, a single character, in no word.
            let terms = ["가방", "손가", "지갑", "amp", "ps", "am", "p f", "s\nl", "가", "방", "zz"]
            try await Self.expectFoundThroughChanges(terms, paged: ["가방", "amp", "지갑"], store, &shelf, kind)
        }
    }

    /// A store holding a few products whose words hold the tests' terms, after `fillers` that hold
    /// none of them.
    private static func stocked(_ store: any MarketStore, fillers: Int) async throws -> Shelf {
        let vendor = try await StoreContractTests.vendor(store)
        var shelf = Shelf()
        let fillerItems = (0..<fillers).map { ("0\($0)", "") }
        for (name, description) in fillerItems + [
            ("Wireless lamp", "a lamp for lamps"), ("wireless charger", "fast\ncharger charger"),
            ("lamps", "two lamps"), ("빈티지 스피커", "블루투스스피커 스피커"), ("desk", "wireless\nlamp"),
            ("블루투스스피커", "빈티지"), ("손가방", "가죽 가방"), ("작은지갑", "지갑"),
        ] {
            let product = try await StoreContractTests.product(
                store, vendor: vendor, name: name, description: description)
            shelf.put(product.id, name, description)
        }
        return shelf
    }

    /// Every page of each term as a substring search finds it at first and after an edit, a hide, a
    /// show and a delete; the second page after a cursor, both ways, for each of `paged`.
    private static func expectFoundThroughChanges(
        _ terms: [String], paged: [String], _ store: any MarketStore, _ shelf: inout Shelf, _ kind: StoreKind
    ) async throws {
        func check(_ when: String, _ shelf: Shelf) async throws {
            for term in terms {
                let (found, expected) = (try await StoreContractTests.found(term, in: store), shelf.found(term))
                #expect(found == expected, "\(kind) \"\(term)\" \(when)")
            }
        }
        try await check("at first", shelf)
        for term in paged {
            let newest = shelf.found(term).names
            for (order, names) in [(ListOrder.newestFirst, newest), (.oldestFirst, newest.reversed())] {
                let after = try #require(shelf.id(of: names[0]))
                let page = try await store.products(
                    PageRequest(number: 2, itemsPerPage: 2, order: order, after: after), matching: term)
                #expect(page.items.map(\.name) == Array(names.dropFirst().prefix(2)), "\(kind) \(term) \(order)")
            }
        }
        let charger = try #require(shelf.id(of: "wireless charger"))
        try await StoreContractTests.rename(
            charger, to: "wired charger", describedAs: "fast\ncharger charger", in: store, on: &shelf)
        let bag = try #require(shelf.id(of: "손가방"))
        try await StoreContractTests.rename(bag, to: "손지갑", describedAs: "가죽 가방", in: store, on: &shelf)
        try await check("after an edit", shelf)
        let speaker = try #require(shelf.id(of: "블루투스스피커"))
        _ = try await store.setProductHidden(true, id: speaker)
        shelf.remove(speaker)
        try await check("after a hide", shelf)
        _ = try await store.setProductHidden(false, id: speaker)
        shelf.put(speaker, "블루투스스피커", "빈티지")
        try await check("after showing it again", shelf)
        let desk = try #require(shelf.id(of: "desk"))
        _ = try await store.deleteProduct(id: desk)
        shelf.remove(desk)
        let purse = try #require(shelf.id(of: "작은지갑"))
        _ = try await store.deleteProduct(id: purse)
        shelf.remove(purse)
        try await check("after a delete", shelf)
    }
}

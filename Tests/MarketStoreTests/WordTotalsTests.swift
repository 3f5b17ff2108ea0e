import MarketCore
import MarketModel
import Testing

/// A term that lies inside one word is counted and paged through the words the stores keep. What
/// they find must stay what a substring search finds, whoever shares the word, whatever changed.
@Suite struct WordTotalsTests {
    typealias Shelf = StoreContractTests.Shelf

    @Test(arguments: StoreKind.allCases)
    func aTermInsideOneWordIsFoundAsASubstringThroughEditsHidesAndDeletes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await StoreContractTests.vendor(store)
            var shelf = Shelf()
            for (name, description) in [
                ("Wireless lamp", "a lamp for lamps"), ("wireless charger", "fast\ncharger charger"),
                ("lamps", "two lamps"), ("빈티지 스피커", "블루투스스피커 스피커"), ("desk", "wireless\nlamp"),
                ("블루투스스피커", "빈티지"),
            ] {
                let product = try await StoreContractTests.product(
                    store, vendor: vendor, name: name, description: description)
                shelf.put(product.id, name, description)
            }
            // Held by one word ("wireless", "charger", "블루투스"), by several ("lamp", "스피커"), across
            // words, with a line end, in no word.
            let terms = [
                "wireless", "ireless", "charger", "블루투스", "블루투스스피커", "빈티지", "lamp", "lamps", "스피커",
                "lamp for", "charger\n", "s\nlamp", "nothing", "less lamp",
            ]
            func check(_ when: String) async throws {
                for term in terms {
                    let (found, expected) = (try await StoreContractTests.found(term, in: store), shelf.found(term))
                    #expect(found == expected, "\(kind) \"\(term)\" \(when)")
                }
            }
            try await check("at first")
            for term in ["lamp", "wireless", "블루투스"] {
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
            try await check("after an edit")
            let speaker = try #require(shelf.id(of: "블루투스스피커"))
            _ = try await store.setProductHidden(true, id: speaker)
            shelf.remove(speaker)
            try await check("after a hide")
            _ = try await store.setProductHidden(false, id: speaker)
            shelf.put(speaker, "블루투스스피커", "빈티지")
            try await check("after showing it again")
            let desk = try #require(shelf.id(of: "desk"))
            _ = try await store.deleteProduct(id: desk, { _ in })
            shelf.remove(desk)
            try await check("after a delete")
        }
    }
}

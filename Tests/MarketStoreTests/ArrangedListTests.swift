import Foundation
import MarketCore
import MarketModel
import Testing

/// Lists as a shopper arranges them, the same in every store: by relevance, by age and by the
/// price the buyer pays, within a price range, with sold-out products shown or not.
@Suite struct ArrangedListTests {
    struct Item {
        var name: String
        var description: String
        var currency: Currency = .krw
        var price: Int64
        var discount: Int64 = 0
        var stock: Int64 = 1
    }

    /// In the order they are listed, oldest first.
    static let items = [
        Item(name: "가방 지갑", description: "가죽", price: 30000),
        Item(name: "여행가방", description: "튼튼해요", price: 50000, discount: 10000, stock: 0),
        Item(name: "모자", description: "가방에 넣기 좋은 모자", price: 10000, stock: 2),
        Item(name: "가방끈", description: "길이 조절", price: 5000, stock: 5),
        Item(name: "신발", description: "새 신발 (가방 증정)", price: 70000),
        Item(name: "Lamp", description: "손가방 모양", currency: .usd, price: 20),
        Item(name: "가방", description: "새것", price: 30000),
        Item(name: "Mug", description: "cup", currency: .usd, price: 6, discount: 1, stock: 0),
    ]

    /// The names of one page, and the list's total.
    struct Listed: Equatable, CustomStringConvertible {
        var total: Int
        var names: [String]
        var description: String { "\(total): \(names.joined(separator: ", "))" }
    }

    static func listed(
        _ store: any MarketStore, _ search: String? = nil, _ arrangement: ProductArrangement, page: Int = 1,
        perPage: Int = 10, after: Int64? = nil
    ) async throws -> Listed {
        let found = try await store.products(
            PageRequest(number: page, itemsPerPage: perPage, after: after), matching: search, arranged: arrangement)
        return Listed(total: found.totalCount, names: found.items.map(\.name))
    }

    /// Each item's id by its name.
    static func list(_ items: [Item], in store: any MarketStore) async throws -> [String: Int64] {
        let vendor = try await StoreContractTests.vendor(store)
        var ids: [String: Int64] = [:]
        for item in items {
            let product = try await store.insertProduct(
                NewProduct(
                    vendorID: vendor.id,
                    draft: ProductDraft(
                        name: item.name, description: item.description, currency: item.currency,
                        price: item.price, discount: item.discount, stock: item.stock),
                    images: [], createdAt: StoreContractTests.now))
            ids[item.name] = product.id
        }
        return ids
    }

    @Test(arguments: StoreKind.allCases)
    func eachOrderFilterAndPageIsAsAShopperExpects(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let ids = try await Self.list(Self.items, in: store)
            let relevance = try await Self.listed(store, "가방", ProductArrangement(order: .relevance))
            #expect(
                relevance
                    == Listed(total: 7, names: ["가방", "가방 지갑", "가방끈", "여행가방", "신발", "모자", "Lamp"]),
                "whole words, then a word's start, then a part, the name before the description")
            let best = try await Self.listed(store, "가방", ProductArrangement(order: .relevance), perPage: 1)
            #expect(best == Listed(total: 7, names: ["가방"]), "a page of whole words in names, newest first")
            let secondBest = try await Self.listed(
                store, "가방", ProductArrangement(order: .relevance), page: 2, perPage: 1)
            #expect(secondBest == Listed(total: 7, names: ["가방 지갑"]))
            let nextTwo = try await Self.listed(
                store, "가방", ProductArrangement(order: .relevance), page: 2, perPage: 2)
            #expect(nextTwo == Listed(total: 7, names: ["가방끈", "여행가방"]))
            let lowest = try await Self.listed(store, nil, ProductArrangement(order: .lowestPrice))
            #expect(lowest.names == ["가방끈", "모자", "가방", "가방 지갑", "여행가방", "신발", "Mug", "Lamp"])
            let highest = try await Self.listed(store, nil, ProductArrangement(order: .highestPrice))
            #expect(highest.names == ["신발", "여행가방", "가방", "가방 지갑", "모자", "가방끈", "Lamp", "Mug"])
            let secondPage = try await Self.listed(
                store, nil, ProductArrangement(order: .lowestPrice), page: 2, perPage: 3)
            #expect(secondPage == Listed(total: 8, names: ["가방 지갑", "여행가방", "신발"]))
            let range = PriceRange(currency: .krw, lowest: 40000, highest: 10000)
            let inRange = try await Self.listed(store, nil, ProductArrangement(order: .lowestPrice, prices: range))
            #expect(inRange == Listed(total: 4, names: ["모자", "가방", "가방 지갑", "여행가방"]), "the price paid, not the price")
            let inStock = try await Self.listed(store, nil, ProductArrangement(showsSoldOut: false))
            #expect(inStock == Listed(total: 6, names: ["가방", "Lamp", "신발", "가방끈", "모자", "가방 지갑"]))
            let afterShoes = try await Self.listed(
                store, nil, ProductArrangement(showsSoldOut: false), page: 2, perPage: 3, after: ids["신발"])
            #expect(afterShoes == Listed(total: 6, names: ["가방끈", "모자", "가방 지갑"]), "a cursor in an order by age")
            let everything = ProductArrangement(order: .highestPrice, showsSoldOut: false)
            let bags = try await Self.listed(store, "가방", everything)
            #expect(bags == Listed(total: 6, names: ["신발", "가방", "가방 지갑", "모자", "가방끈", "Lamp"]))
            let dollars = PriceRange(currency: .usd, highest: 5)
            let cheap = try await Self.listed(store, "u", ProductArrangement(order: .relevance, prices: dollars))
            #expect(cheap == Listed(total: 1, names: ["Mug"]), "a short term with a range")

            _ = try await store.setProductHidden(true, id: try #require(ids["신발"]))
            _ = try await store.updateProduct(id: try #require(ids["Lamp"]), replacingImages: nil) { product in
                var cheaper = product
                cheaper.price = 3
                return cheaper
            }
            let changed = try await Self.listed(store, nil, ProductArrangement(order: .highestPrice))
            #expect(
                changed == Listed(total: 7, names: ["여행가방", "가방", "가방 지갑", "모자", "가방끈", "Mug", "Lamp"]),
                "an edit's price at once, a hidden product never")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCommonTermRanksItsNewestMatchesAndListsTheOlderAfter(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await StoreContractTests.vendor(store)
            func add(_ name: String) async throws {
                _ = try await store.insertProduct(
                    NewProduct(
                        vendorID: vendor.id,
                        draft: ProductDraft(name: name, description: "plain", currency: .krw, price: 1000),
                        images: [], createdAt: StoreContractTests.now))
            }
            try await add("lamp, the oldest")
            for number in 1...ProductArrangement.rankedMatches { try await add("lamps \(number)") }
            try await add("lamp, the newest")
            let ranked = ProductArrangement(order: .relevance)
            let first = try await Self.listed(store, "lamp", ranked, perPage: 3)
            #expect(first == Listed(total: 2002, names: ["lamp, the newest", "lamps 2000", "lamps 1999"]))
            let two = try await Self.listed(store, "lamp", ranked, perPage: 2)
            #expect(two == Listed(total: 2002, names: ["lamp, the newest", "lamps 2000"]), "the oldest is not ranked")
            let across = try await Self.listed(store, "lamp", ranked, page: 667, perPage: 3)
            #expect(
                across == Listed(total: 2002, names: ["lamps 3", "lamps 2", "lamps 1"]), "the last ranked, then older")
            let last = try await Self.listed(store, "lamp", ranked, page: 1001, perPage: 2)
            #expect(last == Listed(total: 2002, names: ["lamps 1", "lamp, the oldest"]), "older than the ranked")
        }
    }

    /// A term inside many words, whose whole-word names a store may find by walking the newest products.
    @Test(arguments: StoreKind.allCases)
    func aTermInManyWordsListsItsWholeWordsInNamesFirst(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let parts = "abcdefghi".map { Item(name: "가방\($0)", description: "", price: 1000) }
            _ = try await Self.list(
                [Item(name: "가방 하나", description: "", price: 1000)] + parts
                    + [
                        Item(name: "새 가방", description: "", price: 1000),
                        Item(name: "가방j", description: "", price: 1000),
                    ],
                in: store)
            let relevance = ProductArrangement(order: .relevance)
            let first = try await Self.listed(store, "가방", relevance, perPage: 1)
            #expect(first == Listed(total: 12, names: ["새 가방"]))
            let two = try await Self.listed(store, "가방", relevance, perPage: 2)
            #expect(two == Listed(total: 12, names: ["새 가방", "가방 하나"]))
            let next = try await Self.listed(store, "가방", relevance, page: 2, perPage: 2)
            #expect(next == Listed(total: 12, names: ["가방j", "가방i"]), "then the words' starts")
        }
    }

    /// A term of four characters and more, which a store may count while it finds the page.
    @Test(arguments: StoreKind.allCases)
    func aLongTermIsCountedAlikeInEveryArrangementAndPastTheLastPage(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let ids = try await Self.list(
                [
                    Item(name: "Leather bag", description: "brown", price: 30000),
                    Item(name: "Leather belt", description: "black", price: 10000, stock: 0),
                    Item(name: "Cotton shirt", description: "no leather", price: 20000),
                    Item(name: "Leather shoes", description: "worn", price: 50000, discount: 30000),
                    Item(name: "Mug", description: "cup", price: 6000),
                ], in: store)
            let relevance = ProductArrangement(order: .relevance)
            let all = try await Self.listed(store, "leather", relevance)
            #expect(all == Listed(total: 4, names: ["Leather shoes", "Leather belt", "Leather bag", "Cotton shirt"]))
            let inStock = try await Self.listed(
                store, "leather", ProductArrangement(order: .relevance, showsSoldOut: false))
            #expect(inStock == Listed(total: 3, names: ["Leather shoes", "Leather bag", "Cotton shirt"]))
            let range = PriceRange(currency: .krw, lowest: 15000, highest: 25000)
            let cheap = try await Self.listed(store, "leather", ProductArrangement(order: .lowestPrice, prices: range))
            #expect(cheap == Listed(total: 2, names: ["Leather shoes", "Cotton shirt"]), "the price paid")
            let past = try await Self.listed(store, "leather", relevance, page: 3, perPage: 2)
            #expect(past == Listed(total: 4, names: []), "a page past the last still says how many there are")
            let afterShoes = try await Self.listed(
                store, "leather", ProductArrangement(showsSoldOut: false), page: 2, perPage: 2,
                after: ids["Leather shoes"])
            #expect(afterShoes == Listed(total: 3, names: ["Cotton shirt", "Leather bag"]), "a cursor")
            let none = try await Self.listed(store, "leathers", relevance)
            #expect(none == Listed(total: 0, names: []))
        }
    }

    /// A rare term's near page by price, which each store reads by walking its price index, and the
    /// next, which it reads by looking up every match: the same list either way, for a long term
    /// and a short one, with sold-out products left out and within a price range.
    @Test(arguments: StoreKind.allCases)
    func aRareTermsPagesByPriceAreInPriceOrder(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await StoreContractTests.vendor(store)
            // 64 lamps among 3,240 products: not dense, and few enough that a first page of ten walks.
            var lamps: [(name: String, price: Int64, stock: Int64)] = []
            for number in 0..<3240 {
                let (price, stock) = (Int64(1000 + number * 7919 % 5000), Int64(number % 4))
                let name = number % 51 == 0 ? "lamp \(number)" : "mug \(number)"
                if number % 51 == 0 { lamps.append((name, price, stock)) }
                _ = try await store.insertProduct(
                    NewProduct(
                        vendorID: vendor.id,
                        draft: ProductDraft(
                            name: name, description: "plain", currency: .krw, price: price, stock: stock),
                        images: [], createdAt: StoreContractTests.now))
            }
            // The newest first among equal prices: the later ones.
            let newestFirst = Array(lamps.reversed())
            let cheapest = newestFirst.enumerated().sorted { ($0.1.price, $0.0) < ($1.1.price, $1.0) }.map(\.1)
            let priciest = newestFirst.enumerated().sorted { (-$0.1.price, $0.0) < (-$1.1.price, $1.0) }.map(\.1)
            let range = PriceRange(currency: .krw, lowest: 2000, highest: 4500)
            let lists = [
                (ProductArrangement(order: .lowestPrice), cheapest),
                (ProductArrangement(order: .highestPrice), priciest),
                (ProductArrangement(order: .lowestPrice, showsSoldOut: false), cheapest.filter { $0.stock > 0 }),
                (
                    ProductArrangement(order: .highestPrice, prices: range),
                    priciest.filter { (2000...4500).contains($0.price) }
                ),
            ]
            for term in ["lamp", "amp"] {
                for (arranged, expected) in lists {
                    let names = expected.map(\.name)
                    let first = try await Self.listed(store, term, arranged, page: 1, perPage: 10)
                    let second = try await Self.listed(store, term, arranged, page: 2, perPage: 10)
                    #expect(first == Listed(total: names.count, names: Array(names[0..<10])), "\(term) \(arranged)")
                    #expect(second == Listed(total: names.count, names: Array(names[10..<20])), "\(term) \(arranged)")
                }
            }
        }
    }

    /// A term's list of what is in stock leaves out what is sold out, counted right through every
    /// change: selling out, restocking, a new name while sold out, a new name and selling out at
    /// once, hiding, showing and deleting. Terms of one character to several, in one word and in
    /// several, as each store counts them in its own way.
    @Test(arguments: StoreKind.allCases)
    func aTermsListOfWhatIsInStockIsRightThroughEveryChange(kind: StoreKind) async throws {
        try await kind.withStore { store in
            var items = [
                Item(name: "desk lamp", description: "bright", price: 3000, stock: 0),
                Item(name: "lamps", description: "two", price: 1000),
                Item(name: "clamp", description: "holds a lamp", price: 2000, stock: 0),
                Item(name: "mug", description: "bright cup", price: 500),
                Item(name: "lamp shade", description: "soft", price: 4000, stock: 2),
            ]
            let (ids, listedNames) = (try await Self.list(items, in: store), items.map(\.name))
            let id = { (index: Int) in try #require(ids[listedNames[index]]) }
            var hidden: Set<Int> = []
            func expectRight(_ when: String) async throws {
                for term in ["lamp", "amp", "shade", "mug", "bright", "am", "l"] {
                    let inStock = items.indices.filter {
                        !hidden.contains($0) && items[$0].stock > 0
                            && "\(items[$0].name)\n\(items[$0].description)".contains(term)
                    }
                    let cheapest = inStock.sorted { items[$0].price < items[$1].price }.map { items[$0].name }
                    let newest = inStock.reversed().map { items[$0].name }
                    for (order, names) in [(ProductArrangement.Order.lowestPrice, cheapest), (.newest, newest)] {
                        let listed = try await Self.listed(
                            store, term, ProductArrangement(order: order, showsSoldOut: false))
                        #expect(listed == Listed(total: names.count, names: names), "\(kind) \(term) \(order) \(when)")
                    }
                }
            }
            func change(_ index: Int, _ edit: @escaping @Sendable (inout Product) -> Void) async throws {
                let changed = try #require(
                    try await store.updateProduct(id: try id(index), replacingImages: nil) {
                        var product = $0
                        edit(&product)
                        return product
                    })
                (items[index].name, items[index].stock) = (changed.after.name, changed.after.stock)
            }
            try await expectRight("as listed")
            try await change(1) { $0.stock = 0 }
            try await expectRight("after lamps sold out")
            try await change(0) { $0.stock = 5 }
            try await expectRight("after the desk lamp came back")
            try await change(2) { $0.name = "clamp tool" }
            try await expectRight("after the sold-out clamp's new name")
            try await change(3) {
                $0.name = "mug lamp"
                $0.stock = 0
            }
            try await expectRight("after the mug's new name, sold out")
            try await change(3) { $0.stock = 1 }
            try await expectRight("after the mug lamp came back")
            for index in [4, 2] {
                _ = try await store.setProductHidden(true, id: try id(index))
                hidden.insert(index)
            }
            try await expectRight("after hiding")
            _ = try await store.setProductHidden(false, id: try id(2))
            hidden.remove(2)
            try await expectRight("after showing")
            _ = try await store.deleteProduct(id: try id(0))
            hidden.insert(0)
            try await expectRight("after deleting")
        }
    }

    /// A price range without a search, and what is in stock, are counted from how many products each
    /// store keeps counted at each price: right wherever a range's ends fall (on a price, between
    /// two, one price, none) and after every kind of change: a new price, discount, stock or
    /// currency, hiding, showing and deleting.
    @Test(arguments: StoreKind.allCases)
    func aPriceRangesTotalIsRightWhereverItsEndsFallAndAfterEveryChange(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let paid: [Int64] = [
                0, 9, 10, 99, 100, 109, 110, 999, 1_000, 1_099, 1_100, 12_000, 12_999, 13_000, 345_678,
            ]
            var items = paid.enumerated().map { index, amount in
                Item(
                    name: "item \(index)", description: "plain", currency: index % 4 == 3 ? .usd : .krw,
                    price: amount + Int64(index % 2) * 500, discount: Int64(index % 2) * 500, stock: Int64(index % 3))
            }
            let ids = try await Self.list(items, in: store)
            var hidden: Set<String> = []
            let bounds: [Int64] = [
                0, 9, 10, 11, 99, 100, 105, 109, 110, 999, 1_000, 1_099, 1_100, 12_999, 13_000, 1_000_000,
            ]
            func expectRightTotals(_ when: String) async throws {
                for currency in [Currency.krw, .usd] {
                    for (index, lowest) in bounds.enumerated() {
                        for highest in bounds[index...] {
                            for inStockOnly in [false, true] {
                                let range = PriceRange(currency: currency, lowest: lowest, highest: highest)
                                let expected = items.filter {
                                    !hidden.contains($0.name) && $0.currency == currency
                                        && (lowest...highest).contains($0.price - $0.discount)
                                        && (!inStockOnly || $0.stock > 0)
                                }.count
                                let listed = try await Self.listed(
                                    store, nil,
                                    ProductArrangement(order: .lowestPrice, prices: range, showsSoldOut: !inStockOnly),
                                    perPage: 1)
                                #expect(
                                    listed.total == expected,
                                    "\(when): \(currency) \(lowest)…\(highest), \(inStockOnly)")
                            }
                        }
                    }
                }
                let inStock = try await Self.listed(store, nil, ProductArrangement(showsSoldOut: false), perPage: 1)
                #expect(inStock.total == items.filter { !hidden.contains($0.name) && $0.stock > 0 }.count, "\(when)")
            }
            try await expectRightTotals("as listed")

            func change(_ index: Int, _ edit: @escaping @Sendable (inout Product) -> Void) async throws {
                let id = try #require(ids[items[index].name])
                let changed = try #require(
                    try await store.updateProduct(id: id, replacingImages: nil) {
                        var product = $0
                        edit(&product)
                        return product
                    })
                (items[index].price, items[index].discount) = (changed.after.price, changed.after.discount)
                (items[index].stock, items[index].currency) = (changed.after.stock, changed.after.currency)
            }
            try await change(12) { $0.price = 13_000 }
            try await change(9) { $0.discount = 600 }
            try await change(5) { $0.stock = 0 }
            try await change(6) { $0.stock = 4 }
            try await change(8) { $0.currency = .usd }
            for index in [2, 10] {
                _ = try await store.setProductHidden(true, id: try #require(ids[items[index].name]))
                hidden.insert(items[index].name)
            }
            _ = try await store.setProductHidden(false, id: try #require(ids[items[2].name]))
            hidden.remove(items[2].name)
            _ = try await store.deleteProduct(id: try #require(ids[items[13].name]))
            items.remove(at: 13)
            try await expectRightTotals("after the changes")
        }
    }
}

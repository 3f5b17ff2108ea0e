import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// What every MarketStore must do. Each implementation runs this suite through `StoreKind`.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Runs `body` on a new, empty market of this kind and removes it afterwards.
    func withStore(_ body: (any MarketStore) async throws -> Void) async throws {
        try await TestStorage.withMarket(self == .sqlite ? .sqlite : .postgres) { market in
            try await body(market.store)
        }
    }
}

@Suite struct StoreContractTests {
    static let now = Date(timeIntervalSince1970: 1_652_486_400.25)

    static func vendor(_ store: any MarketStore, _ name: String = "vendor") async throws -> Vendor {
        try await store.insertVendor(
            NewVendor(
                identifier: UUID().uuidString.lowercased(), name: name, secretHash: "hash-\(name)", createdAt: now))
    }

    @discardableResult
    static func product(
        _ store: any MarketStore, vendor: Vendor, name: String, description: String = "", images: Int = 1
    ) async throws -> Product {
        let newImages = (0..<images).map {
            NewProductImage(
                originalKey: "\(name)-\($0).jpg", thumbnailKey: "\(name)-\($0)-thumb.jpg", width: 10, height: 20)
        }
        return try await store.insertProduct(
            NewProduct(
                vendorID: vendor.id,
                draft: ProductDraft(
                    name: name, description: description, currency: .usd, price: 100, discount: 10, stock: 3),
                images: newImages, createdAt: now))
    }

    @Test(arguments: StoreKind.allCases)
    func deletingEveryProductNumbersTheNextOneAsInANewMarket(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let (papri, judy) = (try await Self.vendor(store, "papri"), try await Self.vendor(store, "judy"))
            for number in 1...3 {
                try await Self.product(store, vendor: number == 2 ? judy : papri, name: "P\(number)")
            }
            #expect(try await store.deleteEveryProduct() == 3)
            #expect(try await store.products(PageRequest(number: 1, itemsPerPage: 5), matching: nil).totalCount == 0)
            let first = try await Self.product(store, vendor: judy, name: "First again", images: 2)
            #expect(first.id == 1 && first.images.map(\.id) == [1, 2])
            #expect(try await store.allVendors().count == 2, "vendors stay")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func vendorsAreFoundByIdentifierAndUnique(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store, "first")
            let found = try #require(try await store.vendorCredentials(identifier: vendor.identifier))
            #expect(found.vendor == vendor)
            #expect(found.secretHash == "hash-first")
            #expect(try await store.vendorCredentials(identifier: "nobody") == nil)
            let duplicate = NewVendor(
                identifier: vendor.identifier, name: "again", secretHash: "x", createdAt: Self.now)
            let error = try await #require(throws: MarketError.self) { try await store.insertVendor(duplicate) }
            #expect(error.kind == .conflict)
            #expect(try await store.allVendors() == [vendor])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aVendorsProductsAreItsOwnNewestFirstWithoutHiddenOnes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let papri = try await Self.vendor(store, "papri")
            let judy = try await Self.vendor(store, "judy")
            for number in 1...3 { try await Self.product(store, vendor: papri, name: "Cup \(number)") }
            try await Self.product(store, vendor: judy, name: "Judy's lamp")
            let hidden = try await Self.product(store, vendor: papri, name: "Poster")
            _ = try await store.setProductHidden(true, id: hidden.id)
            let first = try await store.products(PageRequest(number: 1, itemsPerPage: 2), ofVendor: papri.id)
            #expect(first.totalCount == 3)
            #expect(first.items.map(\.name) == ["Cup 3", "Cup 2"])
            let second = try await store.products(PageRequest(number: 2, itemsPerPage: 2), ofVendor: papri.id)
            #expect(second.items.map(\.name) == ["Cup 1"])
            #expect(
                try await store.products(PageRequest(number: 1, itemsPerPage: 20), ofVendor: judy.id).items.map(\.name)
                    == ["Judy's lamp"])
        }
    }

    /// Some apps show their edit menus only for their team's number on the old server.
    @Test(arguments: StoreKind.allCases)
    func aVendorMayBeGivenItsIdAndTheNextIdsGoAroundIt(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let first = try await Self.vendor(store, "first")
            let team = try await store.insertVendor(
                NewVendor(
                    id: 82, identifier: UUID().uuidString.lowercased(), name: "team", secretHash: "h",
                    createdAt: Self.now))
            #expect(team.id == 82)
            let next = try await Self.vendor(store, "next")
            #expect(next.id == 83, "the next vendor after \(first.id) and 82")
            let taken = NewVendor(
                id: 82, identifier: UUID().uuidString.lowercased(), name: "x", secretHash: "h", createdAt: Self.now)
            let error = try await #require(throws: MarketError.self) { try await store.insertVendor(taken) }
            #expect(error.kind == .conflict)
            #expect(error.description == "a vendor with the id 82 exists already")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aProductComesBackAsItWentIn(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            let product = try await Self.product(
                store, vendor: vendor, name: "Lamp", description: "Warm light", images: 3)
            #expect(product.name == "Lamp")
            #expect(product.vendor == vendor.summary)
            #expect((product.price, product.discount, product.stock, product.currency) == (100, 10, 3, .usd))
            #expect(product.images.map(\.originalKey) == ["Lamp-0.jpg", "Lamp-1.jpg", "Lamp-2.jpg"])
            #expect(product.coverImageID == product.images[0].id)
            #expect(abs(product.createdAt.timeIntervalSince(Self.now)) < 0.001)
            #expect(try await store.product(id: product.id, includingHidden: false) == product)
            #expect(try await store.product(id: product.id + 100, includingHidden: false) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorPageStartsAfterTheProductItNamesWhateverChangedBefore(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            var ids: [Int64] = []
            for number in 1...6 {
                ids.append(try await Self.product(store, vendor: vendor, name: "Lamp \(number)").id)
            }
            _ = try await store.deleteProduct(id: ids[5])
            try await Self.product(store, vendor: vendor, name: "Lamp 7")
            let next = try await store.products(PageRequest(number: 2, itemsPerPage: 2, after: ids[3]), matching: nil)
            #expect(
                next.items.map(\.name) == ["Lamp 3", "Lamp 2"], "a delete and a create above the cursor shift nothing")
            let searched = try await store.products(
                PageRequest(number: 2, itemsPerPage: 5, after: ids[2]), matching: "lamp")
            #expect(searched.items.map(\.name) == ["Lamp 2", "Lamp 1"])
            let short = try await store.products(PageRequest(number: 2, itemsPerPage: 5, after: ids[2]), matching: "p")
            #expect(short.items.map(\.name) == ["Lamp 2", "Lamp 1"])
            let oldest = try await store.products(
                PageRequest(number: 2, itemsPerPage: 2, order: .oldestFirst, after: ids[1]), matching: nil)
            #expect(oldest.items.map(\.name) == ["Lamp 3", "Lamp 4"])
            let oldestShort = try await store.products(
                PageRequest(number: 2, itemsPerPage: 2, order: .oldestFirst, after: ids[1]), matching: "p")
            #expect(oldestShort.items.map(\.name) == ["Lamp 3", "Lamp 4"])
        }
    }

    /// What the inspector, the faults and the operators keep: on every store, so on every instance.
    @Test(arguments: StoreKind.allCases)
    func requestRecordsFaultsAndOperatorsAreKept(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let learner = try await Self.vendor(store, "learner")
            let other = try await Self.vendor(store, "other")
            for number in 0..<5 {
                try await store.appendRequestRecord(
                    vendorID: learner.id, at: Self.now, detail: Data("r\(number)".utf8), keeping: 3)
            }
            try await store.appendRequestRecord(vendorID: other.id, at: Self.now, detail: Data("o".utf8), keeping: 3)
            let kept = try await store.requestRecords(vendorID: learner.id, after: nil, limit: 10)
            #expect(kept.map { String(decoding: $0.detail, as: UTF8.self) } == ["r4", "r3", "r2"], "the newest 3")
            #expect(try await store.requestRecords(vendorID: other.id, after: nil, limit: 10).count == 1)
            let since = try await store.requestRecords(vendorID: learner.id, after: kept[2].id, limit: 10)
            #expect(since.map(\.id) == [kept[0].id, kept[1].id], "only those kept since")

            try await store.noteFirstStep("list_first_page", vendorID: learner.id, at: Self.now)
            try await store.noteFirstStep("list_first_page", vendorID: learner.id, at: Self.now.addingTimeInterval(60))
            try await store.noteFirstStep("detail", vendorID: learner.id, at: Self.now.addingTimeInterval(5))
            #expect(
                try await store.firstSteps(vendorID: learner.id)
                    == ["list_first_page": Self.now, "detail": Self.now.addingTimeInterval(5)], "the first time stays")
            #expect(try await store.firstSteps(vendorID: other.id).isEmpty)

            #expect(try await store.faults(vendorID: learner.id) == nil)
            try await store.setFaults(Data("a".utf8), vendorID: learner.id)
            try await store.setFaults(Data("b".utf8), vendorID: learner.id)
            #expect(try await store.faults(vendorID: learner.id) == Data("b".utf8))
            #expect(try await store.faults(vendorID: other.id) == nil)
            try await store.setFaults(nil, vendorID: learner.id)
            #expect(try await store.faults(vendorID: learner.id) == nil)

            try await Self.product(store, vendor: learner, name: "A")
            try await Self.product(store, vendor: learner, name: "B")
            try await Self.product(store, vendor: other, name: "C")
            let overview = try await store.vendorOverview()
            #expect(overview.map(\.vendor.name) == ["learner", "other"])
            #expect(overview.map(\.productCount) == [2, 1])
            #expect(overview.map(\.lastRequestAt) == [Self.now, Self.now])
            #expect(try await store.deleteProducts(vendorID: learner.id) == 2)
            #expect(try await store.products(PageRequest(number: 1, itemsPerPage: 10), matching: nil).totalCount == 1)

            try await store.insertOperator(name: "teacher", secretHash: "hash", at: Self.now)
            await #expect(throws: MarketError.self) {
                try await store.insertOperator(name: "teacher", secretHash: "other", at: Self.now)
            }
            #expect(try await store.operatorSecretHash(name: "teacher") == "hash")
            #expect(try await store.operatorSecretHash(name: "nobody") == nil)
            for products in [1, 2] {
                try await store.recordOperatorAction(
                    OperatorAction(operatorName: "teacher", act: .filledMarket(products: products), at: Self.now))
            }
            #expect(
                try await store.operatorActions(limit: 10).map(\.act) == [
                    .filledMarket(products: 2), .filledMarket(products: 1),
                ])
        }
    }

    /// An operator's moderation: a hidden product leaves every list, search, total and detail, and
    /// nobody owns it until it is shown again; deleting it while hidden keeps the total right.
    @Test(arguments: StoreKind.allCases)
    func aHiddenProductIsNowhereUntilShownAgain(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            let first = try await Self.product(store, vendor: vendor, name: "Lamp", description: "warm light")
            let hidden = try await Self.product(store, vendor: vendor, name: "Poster", description: "ok")
            let page = PageRequest(number: 1, itemsPerPage: 10)
            func listed(_ search: String? = nil) async throws -> (total: Int, names: [String]) {
                let found = try await store.products(page, matching: search)
                return (found.totalCount, found.items.map(\.name))
            }
            #expect(try await store.setProductHidden(true, id: hidden.id) == "Poster")
            #expect(try await listed() == (1, ["Lamp"]))
            #expect(try await listed("poster") == (0, []), "through the trigram index")
            #expect(try await listed("po") == (0, []), "and by scanning, for short terms")
            #expect(try await store.product(id: hidden.id, includingHidden: false) == nil)
            #expect(try await store.ownership(of: hidden.id)?.hidden == true, "the service tells only its owner")
            #expect(
                try await store.hiddenProducts() == [ProductLabel(id: hidden.id, name: "Poster", vendorName: "vendor")]
            )
            #expect(try await store.setProductHidden(false, id: hidden.id) == "Poster")
            #expect(try await listed() == (2, ["Poster", "Lamp"]))
            #expect(try await listed("poster") == (1, ["Poster"]))
            #expect(try await store.product(id: hidden.id, includingHidden: false)?.name == "Poster")
            _ = try await store.setProductHidden(true, id: hidden.id)
            #expect(try await store.deleteProduct(id: hidden.id) != nil)
            #expect(try await listed() == (1, ["Lamp"]))
            try await Self.product(store, vendor: vendor, name: "Chair")
            #expect(try await listed() == (2, ["Chair", "Lamp"]), "the total stays right")
            #expect(try await store.setProductHidden(true, id: 999_999) == nil)
            _ = first
        }
    }

    /// Search finds a term of any length and script exactly where it is a substring of a product's
    /// name or description (lowercased), through the stores' indexes; an edit's new words are found
    /// at once, a deleted or hidden product never.
    @Test(arguments: StoreKind.allCases)
    func everyTermIsFoundWhereItIsASubstringWhateverItsLength(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            var shelf = Shelf()
            // Enough others that a rare term is read through its index and a common one otherwise.
            for number in 1...50 {
                let name = "filler \(number)"
                let product = try await Self.product(store, vendor: vendor, name: name, description: "plain")
                shelf.put(product.id, name, "plain")
            }
            for (name, description) in [
                ("빈티지 가죽 가방", "지갑도 있어요"), ("손가방", "가벼운 가방"), ("Wireless Lamp", "warm light, 2 bulbs"),
                ("모자", "여름 모자 #12"), ("Café mug", "É for émail\n12 oz"), ("가", "방"), ("a", "b"),
                ("시계 😀 watch", "👍🏽 works"),
            ] {
                let product = try await Self.product(store, vendor: vendor, name: name, description: description)
                shelf.put(product.id, name, description)
            }
            let terms = [
                "가", "방", "가방", "방지", "지갑", "손가", "a", "la", "wireless", "12", "1", "#", "#1", " #", "é", "é ",
                "ém", "😀", "👍🏽", "🏽", "p\n", "\n", "z", "없다", "가방 ", "o",
            ]
            for term in terms {
                let (found, expected) = (try await Self.found(term, in: store), shelf.found(term))
                #expect(found == expected, "\(kind) \"\(term)\"")
            }
            let past = try await store.products(PageRequest(number: 20, itemsPerPage: 3), matching: "filler")
            #expect(past.items.isEmpty && past.totalCount == 50, "a page past the last still tells the total")
            let bag = try #require(shelf.id(of: "손가방"))
            try await Self.rename(bag, to: "손지갑", describedAs: "가벼운 가방", in: store, on: &shelf)
            let (edited, expected) = (try await Self.found("손지", in: store), shelf.found("손지"))
            #expect(edited == expected, "an edit's words at once")
            let old = try await Self.found("손가", in: store)
            #expect(old == Shelf.Found(total: 0, names: []), "and the old ones gone")
            let lamp = try #require(shelf.id(of: "Wireless Lamp"))
            _ = try await store.deleteProduct(id: lamp)
            _ = try await store.setProductHidden(true, id: bag)
            shelf.remove(lamp)
            shelf.remove(bag)
            for term in ["la", "l", "2", "손", "가방", "wireless"] {
                let (found, expected) = (try await Self.found(term, in: store), shelf.found(term))
                #expect(found == expected, "\(kind) \"\(term)\" after a delete and a hide")
            }
        }
    }

    /// Renames a product in the store and on the shelf (its description as the shelf has it).
    static func rename(
        _ id: Int64, to name: String, describedAs description: String, in store: any MarketStore,
        on shelf: inout Shelf
    ) async throws {
        _ = try await store.updateProduct(id: id, replacingImages: nil) { product in
            var changed = product
            changed.name = name
            return changed
        }
        shelf.put(id, name, description)
    }

    /// Every page of a search, three at a time: its total and the names in order.
    static func found(_ term: String, in store: any MarketStore) async throws -> Shelf.Found {
        var names: [String] = []
        var page = 1
        while true {
            let found = try await store.products(PageRequest(number: page, itemsPerPage: 3), matching: term)
            names += found.items.map(\.name)
            if found.items.count < 3 { return Shelf.Found(total: found.totalCount, names: names) }
            page += 1
        }
    }

    /// The products a test put in a store, and what a search should find among them.
    struct Shelf {
        struct Found: Equatable {
            var total: Int
            var names: [String]
        }

        private var products: [(id: Int64, name: String, text: String)] = []

        mutating func put(_ id: Int64, _ name: String, _ description: String) {
            remove(id)
            products.append((id, name, (name + "\n" + description).lowercased()))
            products.sort { $0.id > $1.id }
        }

        mutating func remove(_ id: Int64) {
            products.removeAll { $0.id == id }
        }

        func id(of name: String) -> Int64? {
            products.first { $0.name == name }?.id
        }

        /// Newest first, compared as bytes: Swift compares characters, the stores Unicode scalars.
        func found(_ term: String) -> Found {
            let names = products.filter { Array($0.text.utf8).firstRange(of: Array(term.utf8)) != nil }.map(\.name)
            return Found(total: names.count, names: names)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagesAreNewestFirstAndSearchMatchesLowercasedText(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            for number in 1...7 { try await Self.product(store, vendor: vendor, name: "Item \(number)") }
            try await Self.product(store, vendor: vendor, name: "Special", description: "Ünïcode CASE")
            let page = try await store.products(PageRequest(number: 2, itemsPerPage: 3), matching: nil)
            #expect(page.totalCount == 8)
            #expect(page.items.map(\.name) == ["Item 5", "Item 4", "Item 3"])
            #expect(page.items[0].thumbnailKey == "Item 5-0-thumb.jpg")
            let found = try await store.products(PageRequest(number: 1, itemsPerPage: 10), matching: "ünïcode case")
            #expect(found.items.map(\.name) == ["Special"])
            #expect(found.totalCount == 1)
            let short = try await store.products(PageRequest(number: 1, itemsPerPage: 2), matching: "m 7")
            #expect(short.items.map(\.name) == ["Item 7"])
            let twoLetters = try await store.products(PageRequest(number: 1, itemsPerPage: 2), matching: "ün")
            #expect(twoLetters.items.map(\.name) == ["Special"])
            #expect(try await store.products(PageRequest(number: 1, itemsPerPage: 2), matching: "\"x").totalCount == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updatesAreAtomicAndARefusedChangeChangesNothing(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            let product = try await Self.product(store, vendor: vendor, name: "Before", images: 2)
            let updated = try await store.updateProduct(id: product.id, replacingImages: nil) { current in
                var changed = current
                changed.name = "After"
                changed.coverImageID = current.images[1].id
                return changed
            }?.after
            #expect(updated?.name == "After")
            #expect(updated?.coverImageID == product.images[1].id)
            #expect(
                try await store.products(PageRequest(number: 1, itemsPerPage: 1), matching: "after").totalCount == 1)
            #expect(
                try await store.products(PageRequest(number: 1, itemsPerPage: 1), matching: "before").totalCount == 0)
            struct Refusal: Error {}
            await #expect(throws: Refusal.self) {
                try await store.updateProduct(
                    id: product.id,
                    replacingImages: [NewProductImage(originalKey: "x", thumbnailKey: "y", width: 1, height: 1)]
                ) { _ in throw Refusal() }
            }
            #expect(try await store.product(id: product.id, includingHidden: false) == updated)
            #expect(try await store.updateProduct(id: 999, replacingImages: nil) { $0 } == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func replacingImagesMakesTheFirstNewOneTheCover(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            let product = try await Self.product(store, vendor: vendor, name: "Old", images: 2)
            let replacement = ["a", "b", "c"].map {
                NewProductImage(originalKey: "\($0).jpg", thumbnailKey: "\($0)-thumb.jpg", width: 3, height: 4)
            }
            let result = try #require(
                try await store.updateProduct(id: product.id, replacingImages: replacement) { $0 })
            #expect(result.before == product)
            #expect(result.after.images.map(\.originalKey) == ["a.jpg", "b.jpg", "c.jpg"])
            #expect(result.after.coverImageID == result.after.images[0].id)
            #expect(
                try await store.referencedImageKeys(among: ["Old-0.jpg", "a.jpg", "b-thumb.jpg"]) == [
                    "a.jpg", "b-thumb.jpg",
                ])
            let listed = try await store.products(PageRequest(number: 1, itemsPerPage: 1), matching: nil).items[0]
            #expect(listed.thumbnailKey == "a-thumb.jpg")
            #expect(listed.thumbnailKeys == ["a-thumb.jpg", "b-thumb.jpg", "c-thumb.jpg"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func ownershipTellsTheVendorsSecretAndTheItemsPassword(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store, "owner")
            let plain = try await Self.product(store, vendor: vendor, name: "Plain")
            let item = try await store.insertProduct(
                NewProduct(
                    vendorID: vendor.id, draft: ProductDraft(name: "Item", description: "", currency: .krw, price: 1),
                    images: [], passwordHash: "item-hash", createdAt: Self.now))
            #expect(item.images.isEmpty && item.coverImageID == nil)
            let plainOwner = try #require(try await store.ownership(of: plain.id))
            #expect(plainOwner.vendorIdentifier == vendor.identifier)
            #expect(plainOwner.vendorSecretHash == "hash-owner")
            #expect(plainOwner.passwordHash == nil)
            #expect(try await store.ownership(of: item.id)?.passwordHash == "item-hash")
            #expect(try await store.ownership(of: 12345) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagesCanBeOldestFirst(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            for number in 1...5 { try await Self.product(store, vendor: vendor, name: "Item \(number)") }
            let page = try await store.products(
                PageRequest(number: 2, itemsPerPage: 2, order: .oldestFirst), matching: nil)
            #expect(page.items.map(\.name) == ["Item 3", "Item 4"])
            let found = try await store.products(
                PageRequest(number: 1, itemsPerPage: 2, order: .oldestFirst), matching: "item")
            #expect(found.items.map(\.name) == ["Item 1", "Item 2"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletesTakeTokensAlongAndFreeImageKeys(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            let product = try await Self.product(store, vendor: vendor, name: "Gone")
            try await store.insertDeleteToken(hash: "digest", productID: product.id, issuedAt: Self.now)
            #expect(try await store.productID(forDeleteToken: "digest") == product.id)
            #expect(try await store.referencedImageKeys(among: ["Gone-0.jpg", "Gone-0-thumb.jpg"]).count == 2)
            #expect(try await store.product(id: product.id, includingHidden: false) != nil)
            #expect(try await store.deleteProduct(id: product.id) == product)
            #expect(try await store.products(PageRequest(number: 1, itemsPerPage: 5), matching: nil).totalCount == 0)
            #expect(try await store.products(PageRequest(number: 1, itemsPerPage: 5), matching: "gone").totalCount == 0)
            #expect(try await store.product(id: product.id, includingHidden: false) == nil)
            #expect(try await store.productID(forDeleteToken: "digest") == nil)
            #expect(try await store.referencedImageKeys(among: ["Gone-0.jpg", "Gone-0-thumb.jpg"]).isEmpty)
        }
    }
}

extension StoreContractTests {
    /// A page far down the catalogue (SQLite finds those by position, not by stepping over every
    /// product before them) holds what walking the whole list gives, before and after a change.
    @Test(arguments: StoreKind.allCases)
    func pagesDeepInTheCatalogueHoldWhatTheWholeListHolds(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await Self.vendor(store)
            var ids: [Int64] = []
            for number in 0..<2_130 {
                ids.append(try await Self.product(store, vendor: vendor, name: "p\(number)", images: 0).id)
            }
            _ = try await store.setProductHidden(true, id: ids[100])
            _ = try await store.deleteProduct(id: ids[7])
            var shown = ids.filter { $0 != ids[100] && $0 != ids[7] }

            func check(_ label: String) async throws {
                for order in [ListOrder.newestFirst, .oldestFirst] {
                    let listed = order == .newestFirst ? Array(shown.reversed()) : shown
                    for number in [100, 101, 106, 107, 108] {
                        let page = try await store.products(
                            PageRequest(number: number, itemsPerPage: 20, order: order), matching: nil)
                        let start = min((number - 1) * 20, listed.count)
                        #expect(page.totalCount == shown.count, "\(label) \(order) page \(number)")
                        #expect(
                            page.items.map(\.id) == Array(listed[start..<min(start + 20, listed.count)]),
                            "\(label) \(order) page \(number)")
                    }
                }
            }
            try await check("before")
            _ = try await store.deleteProduct(id: ids[5])
            _ = try await store.setProductHidden(true, id: ids[2_129])
            shown.removeAll { $0 == ids[5] || $0 == ids[2_129] }
            try await check("after")
        }
    }
}

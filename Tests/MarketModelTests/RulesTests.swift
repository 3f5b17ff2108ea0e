import Foundation
import MarketModel
import Testing

@Suite struct RulesTests {
    let draft = ProductDraft(
        name: "  Lamp  ", description: "Warm", currency: .krw, price: 1000, discount: 100, stock: 2)

    @Test func aValidDraftIsTrimmedAndKept() throws {
        let valid = try draft.validated()
        #expect(valid.name == "Lamp")
        #expect(valid.price == 1000 && valid.discount == 100)
    }

    @Test(arguments: [
        (ProductDraft(name: "", description: "d", currency: .krw, price: 1), .name as MarketField),
        (ProductDraft(name: "n", description: " \n", currency: .krw, price: 1), .description),
        (
            ProductDraft(name: String(repeating: "가", count: 101), description: "d", currency: .krw, price: 1),
            .name as MarketField
        ),
        (
            ProductDraft(name: "n", description: String(repeating: "d", count: 1001), currency: .krw, price: 1),
            MarketField.description
        ),
        (ProductDraft(name: "n", description: "d", currency: .krw, price: -1), .price),
        (ProductDraft(name: "n", description: "d", currency: .krw, price: MarketRules.maximumAmount + 1), .price),
        (ProductDraft(name: "n", description: "d", currency: .krw, price: 10, discount: 11), .discount),
        (ProductDraft(name: "n", description: "d", currency: .krw, price: 10, discount: -1), .discount),
        (ProductDraft(name: "n", description: "d", currency: .krw, price: 10, stock: -1), .stock),
    ])
    func aDraftBreakingARuleNamesTheField(draft: ProductDraft, field: MarketField) {
        #expect(throws: ValidationError.self) { try draft.validated() }
        do { _ = try draft.validated() } catch { #expect(error.field == field) }
    }

    @Test func aThousandCharacterDescriptionAndAHundredCharacterNameAreFine() throws {
        let longest = ProductDraft(
            name: String(repeating: "n", count: 100), description: String(repeating: "d", count: 1000), currency: .usd,
            price: 1)
        #expect(try longest.validated() == longest)
    }

    @Test func changesAreCheckedAgainstTheWholeProduct() throws {
        let product = Product(
            id: 1, vendor: VendorSummary(id: 1, name: "v", createdAt: .now), name: "Lamp", description: "",
            currency: .krw,
            price: 1000, discount: 300, stock: 1,
            images: [ProductImage(id: 7, originalKey: "a", thumbnailKey: "b", width: 1, height: 1, createdAt: .now)],
            coverImageID: 7, createdAt: .now, updatedAt: .now)
        #expect(try ProductChanges(price: 2000).applied(to: product).discount == 300)
        #expect(throws: ValidationError(field: .discount, rule: .notAbovePrice(200))) {
            try ProductChanges(price: 200).applied(to: product)
        }
        #expect(throws: ValidationError.self) { try ProductChanges(coverImageID: 8).applied(to: product) }
    }

    @Test func theTwoDialectsMeanDifferentThingsByDiscountedPrice() throws {
        let product = Product(
            id: 1, vendor: VendorSummary(id: 1, name: "v", createdAt: .now), name: "Lamp", description: "",
            currency: .krw,
            price: 1000, discount: 300, stock: 1, images: [], coverImageID: nil, createdAt: .now, updatedAt: .now)
        // 2022: the discount amount; a new price alone keeps it.
        #expect(try ProductChanges(discount: .amount(100)).applied(to: product).salePrice == 900)
        #expect(try ProductChanges(price: 1500).applied(to: product).discount == 300)
        // 2021: the sale price; a new price alone keeps what the buyer pays.
        #expect(try ProductChanges(discount: .salePrice(600)).applied(to: product).discount == 400)
        let repriced = try ProductChanges(price: 1500, priceChangeKeeps: .salePrice).applied(to: product)
        #expect((repriced.price, repriced.salePrice) == (1500, 700))
        #expect(throws: ValidationError.self) {
            try ProductChanges(price: 500, priceChangeKeeps: .salePrice).applied(to: product)
        }
        var undiscounted = product
        undiscounted.discount = 0
        #expect(try ProductChanges(price: 1500, priceChangeKeeps: .salePrice).applied(to: undiscounted).discount == 0)
        #expect(try MarketRules.discount(price: 1000, salePrice: 1000) == 0)
        #expect(throws: ValidationError.self) { try MarketRules.discount(price: 1000, salePrice: 1001) }
    }

    @Test func pagesKnowWhereTheyAre() throws {
        let page = Page<Int>(request: PageRequest(number: 93, itemsPerPage: 15), totalCount: 1387, items: [])
        #expect(page.lastPage == 93)
        #expect(!page.hasNext && page.hasPrevious)
        #expect(page.request.offset == 1380)
        #expect(throws: ValidationError.self) { try PageRequest(number: 0, itemsPerPage: 10).validated() }
    }

    @Test(arguments: [("KRW", Currency.krw), ("usd", .usd), (" USD ", .usd)])
    func currencyCodesAreReadForgivingly(code: String, currency: Currency) {
        #expect(Currency(code: code) == currency)
    }

    @Test func onlyKRWAndUSDExist() {
        #expect(Currency(code: "JPY") == nil)
        #expect(Currency.allCases == [.krw, .usd])
    }

    @Test func controlCharactersAreRefusedButADescriptionKeepsItsLineBreaksAndTabs() throws {
        #expect(
            try MarketRules.validDescription("Line one\r\nLine two\twith a tab") == "Line one\r\nLine two\twith a tab")
        let nul = #expect(throws: ValidationError.self) { try MarketRules.validDescription("cut\u{0}here") }
        #expect(nul?.rule == .noControlCharacter("U+0000"))
        #expect(throws: ValidationError.self) { try MarketRules.validName("tab\tbed") }
        #expect(throws: ValidationError.self) { try MarketRules.validName("next\u{85}line") }
        #expect(try MarketRules.validName("  Film camera  ") == "Film camera")
    }
}

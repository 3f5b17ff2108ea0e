import MarketModel
import Testing

@Suite struct ProductEntryTests {
    @Test func everyProblemIsNamedAtOnceBesideItsField() {
        let entry = ProductEntry(name: "  ", description: "", price: "12 apples", discount: "-3", stock: "")
        let problems = #expect(throws: ProductEntry.Problems.self) { try entry.draft(imageCount: 0) }?.byField
        #expect(problems?[.name] == "name must not be empty")
        #expect(problems?[.description] == "description must not be empty")
        #expect(problems?[.price] == "price must be a whole number")
        #expect(problems?[.discount] == "discount must be 0 or more")
        #expect(problems?[.images] == "images must hold at least 1 image")
        #expect(problems?[.stock] == "stock is required", "a blank stock is not taken to mean none")
    }

    @Test func aDiscountBeyondThePriceIsTheDiscountsProblem() throws {
        let entry = ProductEntry(name: "Lamp", description: "Warm", price: "100", discount: "150", stock: "1")
        let problems = #expect(throws: ProductEntry.Problems.self) { try entry.draft(imageCount: nil) }
        #expect(problems?.byField == [.discount: "discount must not be more than the price (100)"])
        let fixed = ProductEntry(
            name: " Lamp ", description: "Warm", price: " 100 ", discount: "", stock: "4", currency: .usd)
        #expect(
            try fixed.draft(imageCount: 2)
                == ProductDraft(name: "Lamp", description: "Warm", currency: .usd, price: 100, discount: 0, stock: 4))
    }

    @Test func amountsAreReadAsPeopleTypeThem() throws {
        for text in ["12000", "12,000", "12,000원", " ₩12,000 ", "12000 원", "US$12,000", "$12000"] {
            #expect(ProductEntry.amount(text) == 12000, "\(text)")
        }
        for text in ["12.5", "1,2,3", "12,00", ",000", "--12", "12 000", "원", "twelve", "１２", "1.23456만", "만만", "천천"] {
            #expect(ProductEntry.amount(text) == nil, "\(text)")
        }
        let korean: [(String, Int64)] = [
            ("5만", 50000), ("5만원", 50000), ("1.5만", 15000), ("만원", 10000), ("3천", 3000), ("2만 5천원", 25000),
            ("1억 2천만", 120_000_000), ("천만원", 10_000_000), ("3천5백", 3500), ("50,000원", 50000),
        ]
        for (text, value) in korean { #expect(ProductEntry.amount(text) == value, "\(text)") }
        // Units typed thousands of times, as a query's `min` can hold them: refused, not read unit by unit.
        for unit in ["억", "십"] { #expect(ProductEntry.amount(String(repeating: unit, count: 20_000)) == nil) }
        let entry = ProductEntry(
            name: "Lamp", description: "Warm", price: "1,234,000원", discount: "34,000", stock: "1,000")
        #expect(try entry.draft(imageCount: 1).price == 1_234_000)
        #expect(try entry.draft(imageCount: 1).discount == 34000)
        #expect(try entry.draft(imageCount: 1).stock == 1000)
    }

    @Test func anEditChangesOnlyWhatDiffersFromTheProduct() throws {
        let original = ProductEntry(
            ProductDraft(name: "Lamp", description: "Warm", currency: .krw, price: 3000, discount: 0, stock: 5))
        var edited = original
        edited.price = "2500"
        edited.description = "Warm light"
        #expect(edited.changedFields(from: original) == [.price, .description])
        let changes = edited.changes(from: original, draft: try edited.draft(imageCount: nil))
        #expect(changes == ProductChanges(description: "Warm light", price: 2500))
    }

    @Test func fieldsBlamedByTheMarketMapToTheEntrysFields() {
        #expect(ProductEntry.Field(blamed: .discount) == .discount)
        #expect(ProductEntry.Field(blamed: .image(3)) == .images)
        #expect(ProductEntry.Field(blamed: .stock) == .stock)
        #expect(ProductEntry.Field(blamed: .secret) == nil)
        #expect(ProductEntry.Field(blamed: nil) == nil)
    }
}

import Foundation
import MarketModel
import MarketTestSupport
import OpenMarketKit
import Testing

@MainActor @Suite struct ProductEditorModelTests {
    static let offline = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:9")!)
    static let papri = VendorCredentials(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret)

    static func seller(_ market: TestMarket) -> OpenMarketClient {
        OpenMarketClient(
            baseURL: URL(string: "http://127.0.0.1:\(market.port)")!, credentials: papri, timeout: .seconds(120))
    }

    @Test func everyBrokenRuleIsNamedNextToItsField() {
        let editor = ProductEditorModel(client: Self.offline)
        editor.name = "  "
        editor.description = String(repeating: "d", count: 1001)
        editor.price = "12.5"
        editor.discount = "-3"
        editor.stock = "lots"
        #expect(editor.validate() == nil)
        #expect(editor.errors[.name] == "name must not be empty")
        #expect(editor.errors[.description] == "description must be at most 1000 characters")
        #expect(editor.errors[.price] == "price must be a whole number")
        #expect(editor.errors[.discount] == "discount must be 0 or more")
        #expect(editor.errors[.stock] == "stock must be a whole number")
        #expect(editor.errors[.images] == "images must hold at least 1 image")
        #expect(editor.descriptionCount == "1001 / 1000")
    }

    @Test func aDiscountAboveThePriceIsRefusedBeforeAnythingIsSent() {
        let editor = ProductEditorModel(client: Self.offline)
        editor.name = "Lamp"
        editor.price = "100"
        editor.discount = "150"
        #expect(editor.validate() == nil)
        #expect(editor.errors[.discount] == "discount must not be more than the price (100)")
    }

    @Test func picturesAreShrunkAndAtMostFive() async throws {
        let editor = ProductEditorModel(client: Self.offline) { image, budget in image.prefix(budget / 1024) }
        for _ in 0..<6 { try await editor.addImage(Data(count: 400 * 1024)) }
        #expect(editor.images.count == 5)
        #expect(editor.images.allSatisfy { $0.count == 300 })
        #expect(editor.errors[.images] == "at most 5 pictures")
        editor.removeImage(at: 0)
        #expect(editor.images.count == 4)
    }

    @Test func registersAndThenEditsOnlyWhatChanged() async throws {
        try await TestMarket.withServer { market in
            let editor = ProductEditorModel(client: Self.seller(market))
            editor.name = "Editor lamp"
            editor.description = "Line one.\nLine two."
            editor.price = "100"
            editor.discount = "10"
            editor.stock = "3"
            editor.currency = .usd
            try await editor.addImage(try TestImages.jpeg())
            let created = try #require(await editor.save())
            #expect(created.listing.bargainPrice == 90)

            let edit = ProductEditorModel(client: Self.seller(market), editing: created)
            #expect(edit.changedFields.isEmpty)
            edit.price = "120"
            edit.name = "Editor lamp, bigger"
            #expect(edit.changedFields == [.price, .name])
            let saved = try #require(await edit.save())
            #expect(saved.listing.name == "Editor lamp, bigger")
            #expect((saved.listing.price, saved.listing.discount, saved.listing.stock) == (120, 10, 3))
            #expect(edit.changedFields.isEmpty, "what was saved is no longer a change")

            try await edit.addImage(try TestImages.jpeg())
            #expect(edit.images.isEmpty)
            #expect(edit.errors[.images] == "pictures cannot be changed once a product is listed")
            edit.description = "  "
            #expect(await edit.save() == nil, "a cleared description is refused, as the market refuses it")
            #expect(edit.errors[.description] == "description must not be empty")
            #expect(try await Self.seller(market).product(id: saved.id).listing.description == "Line one.\nLine two.")
        }
    }

    @Test func anEmptyDescriptionIsRefusedBeforeAnythingIsSent() async throws {
        let editor = ProductEditorModel(client: Self.offline)
        editor.name = "Lamp"
        editor.price = "100"
        #expect(editor.validate() == nil)
        #expect(editor.errors[.description] == "description must not be empty")
    }

    @Test func theServersVerdictLandsOnItsField() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Not mine", by: TestMarket.judy)
            let details = try await Self.seller(market).product(id: product.id)
            let edit = ProductEditorModel(client: Self.seller(market), editing: details)
            edit.stock = "1"
            #expect(await edit.save() == nil)
            #expect(edit.errors.isEmpty, "no field is to blame for another vendor's product")
            #expect(edit.generalError == "The market said 403: product \(product.id) belongs to another vendor")

            edit.price = "-5"
            #expect(await edit.save() == nil)
            #expect(edit.errors[.price] != nil && edit.generalError == nil)
        }
    }
}

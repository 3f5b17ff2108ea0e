import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// A product page offers each photo in the widths a screen needs, in WebP for browsers that take
/// it; the copies are made once, kept, and go when their photo goes. The APIs' URLs stay as they are.
@Suite struct PhotoSizeTests {
    @Test func aProductPageOffersSmallerCopiesMadeOnceAndKeptWithTheirPhoto() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.service.createProduct(
                ProductDraft(name: "Lamp", description: "Warm.", currency: .krw, price: 1000, discount: 0, stock: 1),
                images: [try TestImages.jpeg(width: 1000, height: 750)],
                by: OwnershipProof(identifier: TestMarket.papri.identifier, secret: TestMarket.papri.secret))
            let original = try #require(product.images.first)
            #expect(original.width == 1000)
            let stem = original.originalKey.prefix(64)
            var visitor = StorefrontVisitor(market)
            let page = try await visitor.get("/products/\(product.id)").text
            #expect(
                page.contains(
                    #"<source type="image/webp" srcset="/images/\#(stem)-w400.webp 400w, /images/\#(stem)-w800.webp 800w, /images/\#(stem).webp 1000w""#
                ), "and in WebP as wide as the photo, for a phone's 2x and 3x screens")
            #expect(
                page.contains(
                    #"srcset="/images/\#(stem)-w400.jpg 400w, /images/\#(stem)-w800.jpg 800w, /images/\#(original.originalKey) 1000w""#
                ))
            #expect(!page.contains("-w1600"), "no copy is wider than the photo")

            let webp = try await market.send("GET", "/images/\(stem)-w400.webp")
            #expect(webp.status == 200)
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(webp.body.starts(with: Data("RIFF".utf8)))
            let full = try await market.send("GET", "/images/\(original.originalKey)")
            #expect(webp.body.count * 3 < full.body.count, "\(webp.body.count) of \(full.body.count) bytes")
            let jpeg = try await market.send("GET", "/images/\(stem)-w800.jpg")
            #expect(jpeg.header("Content-Type") == "image/jpeg")
            #expect(jpeg.header("Cache-Control")?.contains("immutable") == true)
            #expect(
                try await market.send("GET", "/images/\(String(repeating: "a", count: 64))-w400.webp").status == 404)
            #expect(
                try await market.send("GET", "/images/\(stem)-w500.webp").status == 404, "only the widths pages ask for"
            )

            let whole = try await market.send("GET", "/images/\(stem).webp")
            #expect(whole.status == 200 && whole.header("Content-Type") == "image/webp")
            #expect(whole.body.count > webp.body.count, "as wide as the photo: \(whole.body.count) bytes")
            #expect(try await market.send("GET", "/images/\(String(repeating: "b", count: 64)).webp").status == 404)

            // Original, thumbnail and the three copies asked for, each made once.
            #expect(try await market.imageFileCount() == 5)
            #expect(try await market.sweepImages() == 0, "copies stay while their photo is named")
            _ = try await market.service.deleteProduct(
                id: product.id, proof: OwnershipProof(secret: TestMarket.papri.secret))
            #expect(try await market.sweepImages() == 5)
            #expect(try await market.send("GET", "/images/\(stem)-w400.webp").status == 404)
        }
    }
}

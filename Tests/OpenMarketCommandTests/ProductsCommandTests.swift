import Foundation
import MarketTestSupport
import Testing

/// `openmarket products …` driving a running market through a product's whole life.
@Suite struct ProductsCommandTests {
    @Test func addListSearchShowEditDelete() async throws {
        try await TestMarket.withServer { market in
            let server = ["--server", "http://127.0.0.1:\(market.port)"]
            let seller = server + ["--identifier", TestMarket.nala.identifier, "--secret", TestMarket.nala.secret]
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let front = folder.appendingPathComponent("front.jpg")
            let back = folder.appendingPathComponent("back.png")
            try TestImages.jpeg(dots: 1).write(to: front)
            try TestImages.png().write(to: back)

            let added = try await OpenMarketBinary.run(
                [
                    "products", "add", "--name", "Terminal camera", "--price", "240000", "--discount", "40000",
                    "--currency", "krw", "--stock", "2", "--description", "35 mm.", "--image", front.path,
                    "--image", back.path, "--json",
                ] + seller)
            #expect(added.status == 0, "\(added.errors)")
            #expect(added.errors.contains("uploading 2 picture(s)"))
            let created = try #require(
                try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any])
            let id = try #require(created["id"] as? Int)
            #expect(created["bargain_price"] as? Int == 200_000)
            #expect((created["images"] as? [Any])?.count == 2)

            try await market.addProduct("Something else")
            let listed = try await OpenMarketBinary.run(["products", "list"] + server)
            #expect(listed.status == 0)
            #expect(listed.output.contains("Terminal camera") && listed.output.contains("Something else"))
            #expect(listed.output.contains("240,000 → 200,000 KRW"))
            #expect(listed.output.contains("page 1 of 1, 2 products"))
            let searched = try await OpenMarketBinary.run(["products", "list", "--search", "CAMERA"] + server)
            #expect(searched.output.contains("Terminal camera") && !searched.output.contains("Something else"))

            let shown = try await OpenMarketBinary.run(["products", "show", String(id)] + server)
            #expect(shown.output.contains("vendor:  nala"))
            #expect(shown.output.contains("35 mm."))
            let pictures = (created["images"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []

            let edited = try await OpenMarketBinary.run(
                ["products", "edit", String(id), "--price", "250000", "--cover", String(pictures[1]), "--json"] + seller
            )
            #expect(edited.status == 0, "\(edited.errors)")
            let changed = try #require(
                try JSONSerialization.jsonObject(with: Data(edited.output.utf8)) as? [String: Any])
            #expect(changed["price"] as? Int == 250_000)
            #expect(changed["discounted_price"] as? Int == 40_000)

            let deleted = try await OpenMarketBinary.run(["products", "delete", String(id)] + seller)
            #expect(deleted.status == 0)
            #expect(deleted.output.contains("deleted \(id): Terminal camera"))
            let gone = try await OpenMarketBinary.run(["products", "show", String(id)] + server)
            #expect(gone.status != 0)
            #expect(gone.errors.contains("no product has the id \(id)"))
        }
    }

    @Test func failuresSayWhatToFixAndExitNonZero() async throws {
        try await TestMarket.withServer { market in
            let server = ["--server", "http://127.0.0.1:\(market.port)"]
            let product = try await market.addProduct("Guarded", price: 100)
            let wrong = try await OpenMarketBinary.run(
                [
                    "products", "edit", String(product.id), "--name", "Mine", "--identifier",
                    TestMarket.papri.identifier,
                    "--secret", "wrong",
                ] + server)
            #expect(wrong.status != 0)
            #expect(wrong.errors.contains("check --identifier and --secret"))
            let anonymous = try await OpenMarketBinary.run(["products", "delete", String(product.id)] + server)
            #expect(anonymous.errors.contains("give --identifier and --secret"))
            let invalid = try await OpenMarketBinary.run(
                [
                    "products", "edit", String(product.id), "--discount", "500", "--identifier",
                    TestMarket.papri.identifier,
                    "--secret", TestMarket.papri.secret,
                ] + server)
            #expect(invalid.status != 0)
            #expect(invalid.errors.contains("must not be more than the price (100) (--discount)"))
            let closed = try await OpenMarketBinary.run(["products", "list", "--server", "http://127.0.0.1:9"])
            #expect(closed.status != 0)
            #expect(closed.errors.contains("cannot reach the market at http://127.0.0.1:9"))
            #expect(try await market.send("GET", "/api/products/\(product.id)").json["name"] as? String == "Guarded")
        }
    }
}

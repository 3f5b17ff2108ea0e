import Foundation
import MarketTestSupport
import Testing

/// A product's whole life as the reference apps drive it (API reference §6), with their hard-coded
/// credentials and the exact shape of their requests: health → list → detail → create → patch →
/// secret → delete.
@Suite struct ReferenceAppWalkthroughTests {
    @Test func tianaAndZZBAEGoThroughAProductsWholeLife() async throws {
        try await TestMarket.withServer { market in
            for number in 1...11 { try await market.addProduct("Shelf item \(number)", by: TestMarket.judy) }
            let tiana = TestMarket.papri
            let host = "Host: 127.0.0.1:\(market.port)"

            let health = try await market.send(wire("GET //healthChecker HTTP/1.1\r\n\(host)\r\n\r\n"))
            #expect(health.status == 200 && health.text == "\"OK\"")

            let list = try await market.send(
                wire("GET //api/products?page_no=1&items_per_page=10 HTTP/1.1\r\n\(host)\r\n\r\n"))
            #expect(list.status == 200)
            #expect(try list.json["last_page"] as? Int == 2)

            let b = UUID().uuidString
            let params =
                #"{"name":"Tiana's mug","descriptions":"Hand thrown.\\nDishwasher safe.","price":12000,"currency":"KRW","discounted_price":2000,"stock":4,"secret":"\#(tiana.secret)"}"#
            let body = wire(
                "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image0.jpg\"\r\nContent-Type: image/jpg\r\n\r\n",
                WirePiece(try TestImages.jpegWithOrientationAndGPS()), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image1.jpg\"\r\nContent-Type: image/jpg\r\n\r\n",
                WirePiece(try TestImages.jpeg(width: 2400, height: 1800)), "\r\n--\(b)--\r\n")
            let created = try await market.send(
                wire(
                    "POST //api/products/ HTTP/1.1\r\n\(host)\r\nidentifier: \(tiana.identifier)\r\n",
                    "Content-Type: multipart/form-data; boundary=\(b)\r\nContent-Length: \(body.count)\r\n\r\n",
                    WirePiece(body)))
            #expect(created.status == 201)
            let product = try created.json
            let id = try #require(product["id"] as? Int)
            #expect(product["bargain_price"] as? Int == 10000)

            // Readable at once, with both images served, upright and shrunk.
            let detail = try await market.send(wire("GET //api/products/\(id) HTTP/1.1\r\n\(host)\r\n\r\n"))
            #expect(detail.status == 200)
            let images = try #require(try detail.json["images"] as? [[String: Any]])
            #expect(images.count == 2)
            let first = try await market.send("GET", Self.path(of: images[0]["url"], port: market.port))
            #expect(TestImages.size(of: first.body)! == (200, 400))
            #expect(!TestImages.hasMetadata(first.body))
            let second = try await market.send("GET", Self.path(of: images[1]["url"], port: market.port))
            #expect(TestImages.size(of: second.body)! == (2048, 1536))
            let thumbnail = try await market.send("GET", Self.path(of: images[1]["thumbnail_url"], port: market.port))
            #expect(TestImages.size(of: thumbnail.body)! == (400, 300))

            let patchBody = #"{"name":"Tiana's big mug","stock":3,"secret":"\#(tiana.secret)"}"#
            let patched = try await market.send(
                wire(
                    "PATCH //api/products/\(id) HTTP/1.1\r\n\(host)\r\nidentifier: \(tiana.identifier)\r\n",
                    "Content-Length: \(patchBody.utf8.count)\r\n\r\n\(patchBody)"))
            #expect(patched.status == 202)
            #expect(try patched.json["name"] as? String == "Tiana's big mug")

            // ZZBAE's practice code: /secret with JSON, then DELETE with the text it got back.
            let secretBody = #"{"secret":"\#(tiana.secret)"}"#
            let secret = try await market.send(
                wire(
                    "POST /api/products/\(id)/secret HTTP/1.1\r\n\(host)\r\nContent-Type: application/json\r\n",
                    "identifier: \(tiana.identifier)\r\nContent-Length: \(secretBody.utf8.count)\r\n\r\n\(secretBody)"))
            #expect(secret.status == 200)
            let deleted = try await market.send(
                wire(
                    "DELETE /api/products/\(id)/\(secret.text) HTTP/1.1\r\n\(host)\r\n",
                    "Content-Type: application/json\r\nidentifier: \(tiana.identifier)\r\n\r\n"))
            #expect(deleted.status == 200)
            #expect(try deleted.json["id"] as? Int == id)
            #expect(try await market.send("GET", "/api/products/\(id)").status == 404)
            #expect(try await market.productCount() == 11)
        }
    }

    private static func path(of url: Any?, port: Int) -> String {
        String((url as? String ?? "").dropFirst("http://127.0.0.1:\(port)".count))
    }
}

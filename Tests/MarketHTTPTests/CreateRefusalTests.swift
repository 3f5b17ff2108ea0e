import Foundation
import MarketImaging
import MarketTestSupport
import Testing

/// Bad creates get a 4xx that names the field and leave no product and no image file behind.
@Suite struct CreateRefusalTests {
    static let papri = TestMarket.papri

    static func params(
        name: String = "Refused", price: String = "1000", currency: String = "KRW", discount: String = "0",
        secret: String = TestMarket.papri.secret
    ) -> String {
        #"{"name":"\#(name)","descriptions":"Should never be stored.","price":\#(price),"currency":"\#(currency)","discounted_price":\#(discount),"stock":1,"secret":"\#(secret)"}"#
    }

    static func form(params: String?, images: [Data], boundary b: String = "B0UNDARY") -> Data {
        var body = Data()
        if let params {
            body += wire("--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n")
        }
        for (index, image) in images.enumerated() {
            body += wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"\(index).jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(image), "\r\n")
        }
        return body + wire("--\(b)--\r\n")
    }

    /// Posts the form and checks the status, the blamed field and that nothing was written.
    static func expectRefused(
        _ market: TestMarket, body: Data, status: Int, field: String?,
        headers: [String] = [
            "identifier: \(TestMarket.papri.identifier)", "Content-Type: multipart/form-data; boundary=B0UNDARY",
        ],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await market.send("POST", "/api/products", headers: headers, body: body)
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        let error = try response.json
        #expect(error["error"] as? Bool == true, sourceLocation: sourceLocation)
        #expect((error["reason"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(error["field"] as? String == field, "\(error)", sourceLocation: sourceLocation)
        #expect(try await market.productCount() == 0, sourceLocation: sourceLocation)
        #expect(try await market.imageFileCount() == 0, sourceLocation: sourceLocation)
    }

    @Test func withoutParams() async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Self.form(params: nil, images: [try TestImages.jpeg()]), status: 400, field: "params")
        }
    }

    @Test func withoutImages() async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: []), status: 400, field: "images")
        }
    }

    @Test func withSixImages() async throws {
        try await TestMarket.inProcess { market in
            let images = try (1...6).map { try TestImages.jpeg(dots: $0) }
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: images), status: 400, field: "images")
        }
    }

    @Test func whenTheSecondImageIsNotAnImage() async throws {
        try await TestMarket.inProcess { market in
            let images = [try TestImages.jpeg(), Data("just some text".utf8), try TestImages.jpeg(dots: 3)]
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: images), status: 400, field: "images[1]")
        }
    }

    @Test func whenAnImageIsTruncated() async throws {
        try await TestMarket.inProcess { market in
            let whole = try TestImages.jpeg(width: 800, height: 600)
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: [whole.prefix(whole.count / 2)]), status: 400,
                field: "images[0]")
        }
    }

    @Test func whenAnImageIsOverTenMegabytes() async throws {
        try await TestMarket.inProcess { market in
            let huge = try TestImages.jpeg() + Data(count: 10 * 1024 * 1024)
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: [huge]), status: 413, field: "images[0]")
        }
    }

    @Test func whenAnImageIsADecompressionBomb() async throws {
        try await TestMarket.inProcess { market in
            let bomb = try ImageSynthesizer.bomb(width: 12_000, height: 12_000)
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: [bomb]), status: 413, field: "images[0]")
        }
    }

    @Test(
        arguments: [
            (params(secret: "wrong-secret"), 401, "secret"),
            (params(discount: "2000"), 400, "discounted_price"),
            (params(currency: "EUR"), 400, "currency"),
            (params(price: "-1"), 400, "price"),
            (params(price: "99.5"), 400, "price"),
            (params(price: "\"ten\""), 400, "price"),
            (params(name: "   "), 400, "name"),
            (params(name: String(repeating: "n", count: 101)), 400, "name"),
            (params(name: #"a\u0000b"#), 400, "name"),
            (params(name: #"bell\u0007"#), 400, "name"),
            ("{\"name\": ", 400, "params"),
            ("[1, 2]", 400, "params"),
            (#"{"name":"No price","descriptions":"d","currency":"KRW","secret":"80sgmjjk9v"}"#, 400, "price"),
            (#"{"name":"No secret","descriptions":"d","price":1,"currency":"KRW"}"#, 400, "secret"),
        ] as [(String, Int, String)])
    func withBadParams(params: String, status: Int, field: String) async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Self.form(params: params, images: [try TestImages.jpeg()]), status: status, field: field)
        }
    }

    @Test func forAnUnknownIdentifier() async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: [try TestImages.jpeg()]), status: 401,
                field: "secret",
                headers: [
                    "identifier: 00000000-0000-0000-0000-000000000000",
                    "Content-Type: multipart/form-data; boundary=B0UNDARY",
                ])
        }
    }

    @Test func withoutAnIdentifier() async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Self.form(params: Self.params(), images: [try TestImages.jpeg()]), status: 400,
                field: "identifier",
                headers: ["Content-Type: multipart/form-data; boundary=B0UNDARY"])
        }
    }

    @Test func whenTheBodyIsNotMultipart() async throws {
        try await TestMarket.inProcess { market in
            try await Self.expectRefused(
                market, body: Data(Self.params().utf8), status: 400, field: nil,
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: application/json"])
        }
    }

    @Test func whenTheBodyIsLargerThanFiveLargeImages() async throws {
        try await TestMarket.inProcess { market in
            let body = Self.form(params: Self.params(), images: [Data(count: 56 * 1024 * 1024)])
            try await Self.expectRefused(market, body: body, status: 413, field: nil)
        }
    }
}

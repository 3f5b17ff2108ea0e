import Foundation
import MarketTestSupport
import Testing

/// Every way a real 2022 app frames `POST /api/products` (API reference §5), byte for byte. Each must
/// create the product with all its images, readable at once.
@Suite struct CreateQuirkTests {
    static let papri = TestMarket.papri
    static let judy = TestMarket.judy
    static let nala = TestMarket.nala

    static func params(_ secret: String, name: String = "Quirky product", extra: String = "") -> String {
        #"{"name":"\#(name)","descriptions":"Sent as a real app sends it.","price":15000,"currency":"KRW","discounted_price":500,"stock":3,\#(extra)"secret":"\#(secret)"}"#
    }

    /// POSTs the body with these headers (Host and Content-Length added as URLSession adds them) and
    /// checks what every client needs: 201, JSON, the product with `images` images and its vendor,
    /// readable right away by id.
    static func expectCreated(
        _ market: TestMarket, path: String, headers: [String], body: Data, images: Int,
        name: String = "Quirky product", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await market.send("POST", path, headers: headers, body: body)
        #expect(response.status == 201, "\(response.text)", sourceLocation: sourceLocation)
        guard response.status == 201 else { return }
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        let created = try response.json
        #expect(created["name"] as? String == name, sourceLocation: sourceLocation)
        #expect((created["images"] as? [Any])?.count == images, sourceLocation: sourceLocation)
        #expect(created["vendors"] is [String: Any], sourceLocation: sourceLocation)
        let id = try #require(created["id"] as? Int)
        let detail = try await market.send("GET", "/api/products/\(id)")
        #expect(detail.status == 200, sourceLocation: sourceLocation)
        let shown = try #require(try detail.json["images"] as? [[String: Any]])
        #expect(shown.count == images, sourceLocation: sourceLocation)
        for image in shown {
            let url = try #require(image["url"] as? String)
            let fetched = try await market.send("GET", String(url.dropFirst("http://127.0.0.1:\(market.port)".count)))
            #expect(fetched.status == 200, sourceLocation: sourceLocation)
        }
    }

    @Test func tianaDoubleSlashTrailingSlashPreambleAndImageJpg() async throws {
        try await TestMarket.withServer { market in
            let b = "5B1E2D3C-0F4A-4B7E-9C1D-2A3B4C5D6E7F"
            let body = wire(
                "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image0.jpg\"\r\nContent-Type: image/jpg\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 1)), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image1.jpg\"\r\nContent-Type: image/jpg\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 2)), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "//api/products/",
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
                body: body, images: 2)
        }
    }

    @Test func nalaImagesBeforeParamsUncompressedWithItsOwnBoundary() async throws {
        try await TestMarket.withServer { market in
            let b = "NalaMarketBoundary-\(UUID().uuidString)"
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image0.jpeg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg(width: 3024, height: 4032)), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.nala.secret))\r\n",
                "--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.nala.identifier)"],
                body: body, images: 1)
        }
    }

    @Test func zzbaeUnspacedDispositionAndARawUTF8Filename() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let params =
                #"{"name":"Quirky product","descriptions":"손으로 만든 JSON","price":"15000","currency":"KRW","discounted_price":"0","stock":"3","secret":"\#(Self.judy.secret)"}"#
            let body = wire(
                "--\(b)\r\nContent-Disposition:form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition:form-data; name=\"images\"; filename=\"1번사진.jpg\"\r\nContent-Type: image/jpg\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.judy.identifier)"],
                body: body, images: 1)
        }
    }

    @Test func mangdiTrailingSpacesAndNoFinalCRLF() async throws {
        try await TestMarket.withServer { market in
            let b = "Boundary-\(UUID().uuidString)"
            let params =
                #"{"name":"Quirky product","description":"openmarket spelling","price":15000,"currency":"USD","secret":"\#(Self.papri.secret)"}"#
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\" \r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"\(UUID().uuidString)\" \r\nContent-Type: image/jpeg \r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
                body: body, images: 1)
        }
    }

    @Test func aCafelaUnquotedFilenameAndNoPartContentType() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=0.jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["identifier: \(Self.papri.identifier)", "Content-Type: multipart/form-data; boundary=\(b)"],
                body: body, images: 1)
        }
    }

    @Test func onetoolQuotedBoundaryAndAJpgContentType() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image.jpg\"\r\nContent-Type: jpg\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: [
                    "Content-Type: multipart/form-data; boundary=\"\(b)\"", "identifier: \(Self.papri.identifier)",
                ], body: body, images: 1)
        }
    }

    @Test func icsAsanListOfTypesAndSunnyQuotedMultipartTypeWithCamelCaseKeys() async throws {
        try await TestMarket.withServer { market in
            let b = "----\(UUID().uuidString)"
            let params =
                #"{"name":"Quirky product","description":"camel","price":15000,"currency":"KRW","discountedPrice":100,"stock":1,"secret":"\#(Self.papri.secret)"}"#
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpeg\"\r\nContent-Type: image/jpeg, image/jpg, image/png\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 1)), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image\"\r\nContent-Type: \"multipart/form-data\"\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 2)), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 2)
            let item = try #require(
                (try await market.send("GET", "/api/products").json["pages"] as? [[String: Any]])?.first)
            #expect(item["discounted_price"] as? Int == 100)
        }
    }

    @Test func jagerYooTwoCRLFsAfterEveryPart() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"\(UUID().uuidString)..png\"\r\nContent-Type: image/png\r\n\r\n",
                WirePiece(try TestImages.png()), "\r\n\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 1)
        }
    }

    @Test func inhoImagePartsDelimitedWithALongerBoundary() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)321312\r\nContent-Disposition: form-data; name=\"images\"; filename=\"0.jpeg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 1)), "\r\n",
                "--\(b)321312\r\nContent-Disposition: form-data; name=\"images\"; filename=\"1.jpeg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 2)), "\r\n--\(b)321312--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 2)
        }
    }

    @Test func wonbiAllImagesConcatenatedInOnePart() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let images = try TestImages.jpeg(dots: 1) + TestImages.png() + TestImages.jpeg(dots: 3)
            let params =
                #"{"name":"Quirky product","description":"three in one","price":15000,"currency":"KRW","secret":"\#(Self.papri.secret)"}"#
            let body = wire(
                "--\(b)\r\nContent-Disposition:form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition:form-data; name=\"images\"; filename=\"image.jpeg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(images), "\r\n--\(b)--")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 3)
        }
    }

    @Test func anIPhonesHEICPhotoIsTakenAndServedAsAJPEG() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"IMG_0001.HEIC\"\r\nContent-Type: image/heic\r\n\r\n",
                WirePiece(try TestImages.heic()), "\r\n--\(b)--\r\n")
            let created = try await market.send(
                "POST", "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body)
            #expect(created.status == 201, "\(created.text)")
            let image = try #require((try created.json["images"] as? [[String: Any]])?.first)
            let url = try #require(image["url"] as? String)
            #expect(url.hasSuffix(".jpg"))
            let fetched = try await market.send("GET", String(url.dropFirst("http://127.0.0.1:\(market.port)".count)))
            #expect(fetched.header("Content-Type") == "image/jpeg")
            #expect(TestImages.size(of: fetched.body) ?? (0, 0) == (480, 640))
        }
    }

    @Test func declaredTypesAndFilenamesAreIgnoredForPNGAndWebP() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"상품 - 0.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.png()), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"-4431923.png\"\r\nContent-Type: image/png\r\n\r\n",
                WirePiece(try TestImages.webp()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 2)
        }
    }

    @Test func handBuiltJSONWithRawNewlinesStrayQuotesAndEmptyValues() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let params =
                "{\n  \"name\" : \"Quirky product\",\n  \"descriptions\" : \"A \"great\" deal\nsecond line\",\n  \"price\" : 15000.0,\n  \"currency\" : \"KRW\",\n  \"discounted_price\" : ,\n  \"stock\" : ,\n  \"secret\" : \"\(Self.papri.secret)\"\n}"
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(params)\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: ["Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)"],
                body: body, images: 1)
            let id = try #require(
                (try await market.send("GET", "/api/products").json["pages"] as? [[String: Any]])?.first?["id"] as? Int)
            let detail = try await market.send("GET", "/api/products/\(id)").json
            #expect(detail["description"] as? String == "A \"great\" deal\nsecond line")
            #expect(detail["price"] as? Int == 15000)
            #expect(detail["discounted_price"] as? Int == 0)
            #expect(detail["stock"] as? Int == 0)
        }
    }

    @Test func unknownKeysSuchAsBase64ImagesAreIgnored() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let base64 = try TestImages.jpeg().base64EncodedString()
            let extra = #""productID":7,"images":[{"file_name":"a.jpg","type":"jpg","data":"\#(base64)"}],"#
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret, extra: extra))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: [
                    "Content-Type: multipart/form-data; boundary=\(b)", "identifier: \(Self.papri.identifier)",
                    "accessId: eddy123",
                ], body: body, images: 1)
        }
    }

    @Test func theIdentifierHeaderNameIsCaseInsensitive() async throws {
        try await TestMarket.withServer { market in
            let b = UUID().uuidString
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n\(Self.params(Self.papri.secret))\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n\r\n",
                WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
            try await Self.expectCreated(
                market, path: "/api/products",
                headers: [
                    "Content-Type: multipart/form-data; boundary=\(b)",
                    "Identifier: \(Self.papri.identifier.uppercased())",
                ], body: body, images: 1)
        }
    }
}

import Foundation
import MarketTestSupport
import Testing

/// The 2021 API as its apps speak it (API reference §2, §5), byte for byte.
@Suite struct V1Tests {
    /// Ryan Market's item form: fields sorted by name, so `images[]` sits between the text fields.
    static func ryanForm(
        _ fields: [String: String], images: [Data], boundary b: String = "ryan-market.boundary-\(UUID().uuidString)"
    ) -> (body: Data, contentType: String) {
        var body = Data()
        var entries = fields.map { ($0.key, Data($0.value.utf8), false) }
        entries += images.map { ("images[]", $0, true) }
        for (index, (name, value, isFile)) in entries.sorted(by: { $0.0 < $1.0 }).enumerated() {
            let disposition =
                isFile
                ? "Content-Disposition: form-data; name=\"\(name)\"; filename=\"image\(index).jpeg\"\r\nContent-Type: image/jpeg"
                : "Content-Disposition: form-data; name=\"\(name)\""
            body += wire("--\(b)\r\n\(disposition)\r\n\r\n", WirePiece(value), "\r\n")
        }
        return (body + wire("--\(b)--\r\n"), "multipart/form-data; boundary=\(b)")
    }

    static let appleWatch = [
        "title": "Apple Watch", "descriptions": "Series 6.\nBarely worn.", "price": "450", "currency": "USD",
        "stock": "3", "discounted_price": "400", "password": "RyanMarket",
    ]

    static func post(_ market: TestMarket, _ fields: [String: String], images: [Data]) async throws -> RawResponse {
        let form = ryanForm(fields, images: images)
        return try await market.send("POST", "/item/", headers: ["Content-Type: \(form.contentType)"], body: form.body)
    }

    /// Apps that cannot leave `discounted_price` out send 0 for "no discount": the 2021 API gives the 0 back as it was
    /// sent, while the 2022 API and the storefront show the product at its price, sold for nothing nowhere. A later
    /// sale price set from the 2021 API is a discount again.
    @Test func aSalePriceOfZeroIsNoDiscountAndThe2021APIGivesItBack() async throws {
        try await TestMarket.inProcess { market in
            var fields = Self.appleWatch
            fields["discounted_price"] = "0"
            let created = try await Self.post(market, fields, images: [try TestImages.jpeg()])
            #expect(created.status == 200, "\(created.text)")
            let id = try #require(try created.json["id"] as? Int)
            #expect(try created.json["discounted_price"] as? Int == 0)
            #expect(try await market.send("GET", "/item/\(id)").json["discounted_price"] as? Int == 0)
            let listed = try #require(try await market.send("GET", "/items/1").json["items"] as? [[String: Any]])
            #expect(listed.first { $0["id"] as? Int == id }?["discounted_price"] as? Int == 0)

            let v2 = try await market.send("GET", "/api/products/\(id)").json
            #expect(v2["price"] as? Double == 450 && v2["bargain_price"] as? Double == 450)
            #expect(v2["discounted_price"] as? Double == 0)
            let page = try await market.send("GET", "/products/\(id)").text
            #expect(page.contains("US$450") && !page.contains("US$0"), "no sale for nothing on the storefront")

            let edited = Self.ryanForm(["discounted_price": "400", "password": "RyanMarket"], images: [])
            let patched = try await market.send(
                "PATCH", "/item/\(id)", headers: ["Content-Type: \(edited.contentType)"], body: edited.body)
            #expect(patched.status == 200, "\(patched.text)")
            #expect(try await market.send("GET", "/item/\(id)").json["discounted_price"] as? Int == 400)
            #expect(try await market.send("GET", "/api/products/\(id)").json["bargain_price"] as? Double == 400)
        }
    }

    /// A real 2021 app ended its multipart lines in LF CR: the market says what is wrong with the body, not that a
    /// field it could not see is missing.
    @Test func aBodyWhoseLinesEndInLFCRIsRefusedForItsLineBreaks() async throws {
        try await TestMarket.inProcess { market in
            let form = Self.ryanForm(Self.appleWatch, images: [try TestImages.jpeg()])
            var reversed = [UInt8](form.body)
            for index in reversed.indices.dropLast() where reversed[index] == 0x0D && reversed[index + 1] == 0x0A {
                (reversed[index], reversed[index + 1]) = (0x0A, 0x0D)
            }
            let refused = try await market.send(
                "POST", "/item/", headers: ["Content-Type: \(form.contentType)"], body: Data(reversed))
            #expect(refused.status == 400)
            let reason = try #require(try refused.json["reason"] as? String)
            #expect(reason.contains("lines end in LF CR") && !reason.contains("title"), "\(reason)")
        }
    }

    @Test func ryanRegistersAnItemAndReadsItBack() async throws {
        try await TestMarket.withServer { market in
            let created = try await Self.post(
                market, Self.appleWatch, images: [try TestImages.jpeg(), try TestImages.jpeg(dots: 2)])
            #expect(created.status == 200)
            #expect(created.header("Content-Type")?.hasPrefix("application/json") == true)
            let item = try created.json
            let id = try #require(item["id"] as? Int)
            #expect(item["title"] as? String == "Apple Watch")
            #expect(item["descriptions"] as? String == "Series 6.\nBarely worn.")
            #expect(item["price"] as? Int == 450)
            #expect(item["discounted_price"] as? Int == 400)
            #expect((item["thumbnails"] as? [String])?.count == 2)
            #expect((item["images"] as? [String])?.count == 2)
            let date = try #require(item["registration_date"] as? Double)
            #expect(abs(date - Date().timeIntervalSince1970) < 120)
            #expect(created.text.contains(/"registration_date":\d+\.\d+/))

            let detail = try await market.send("GET", "/item/\(id)")
            #expect(detail.status == 200)
            #expect(try detail.json["title"] as? String == "Apple Watch")
            for url in try #require(try detail.json["images"] as? [String]) {
                let image = try await market.send("GET", String(url.dropFirst("http://127.0.0.1:\(market.port)".count)))
                #expect(image.status == 200)
            }
        }
    }

    @Test func listsAreTwentyOldestFirstAndEmptyPastTheEnd() async throws {
        try await TestMarket.inProcess { market in
            for number in 1...21 {
                try await market.addProduct("Item \(number)", price: 100, discount: number == 1 ? 10 : 0)
            }
            let first = try await market.send("GET", "/items/1")
            #expect(first.status == 200)
            #expect(try first.json["page"] as? Int == 1)
            let items = try #require(try first.json["items"] as? [[String: Any]])
            #expect(items.count == 20)
            #expect(items.first?["title"] as? String == "Item 1")
            #expect(items.first?["discounted_price"] as? Int == 90)
            #expect(items[1]["discounted_price"] == nil, "omitted, not null, without a discount")
            #expect(items[0]["descriptions"] == nil && items[0]["images"] == nil)
            #expect((items[0]["thumbnails"] as? [String])?.count == 1)
            let second = try await market.send("GET", "//Items/2")
            #expect((try second.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Item 21"])
            let beyond = try await market.send("GET", "/items/3")
            #expect(beyond.status == 200)
            #expect((try beyond.json["items"] as? [Any])?.isEmpty == true)
        }
    }

    /// The market names fields by what they are; the 2021 API spells them its own way.
    @Test func aPictureThatIsNoneIsNamedByItsPlaceInTheForm() async throws {
        try await TestMarket.inProcess { market in
            let refused = try await Self.post(
                market, Self.appleWatch, images: [try TestImages.jpeg(), Data(repeating: 0xFF, count: 64)])
            #expect(refused.status == 400)
            #expect(try refused.json["field"] as? String == "images[1]")
            #expect((try refused.json["reason"] as? String)?.hasPrefix("images[1] ") == true)
        }
    }

    @Test func aPasswordOnlyPatchChangesNothingAndAWrongPasswordIs404() async throws {
        try await TestMarket.inProcess { market in
            let id = try #require(
                try await Self.post(market, Self.appleWatch, images: [try TestImages.jpeg()]).json["id"] as? Int)
            let check = Self.ryanForm(["password": "RyanMarket"], images: [])
            let verified = try await market.send(
                "PATCH", "/item/\(id)", headers: ["Content-Type: \(check.contentType)"], body: check.body)
            #expect(verified.status == 200)
            #expect(try verified.json["title"] as? String == "Apple Watch")
            let wrong = Self.ryanForm(["password": "guess", "title": "Stolen"], images: [])
            let refused = try await market.send(
                "PATCH", "/item/\(id)", headers: ["Content-Type: \(wrong.contentType)"], body: wrong.body)
            #expect(refused.status == 404)
            #expect(try refused.json["error"] as? Bool == true)
            #expect(try refused.json["reason"] as? String != nil)
            #expect(try await market.send("GET", "/item/\(id)").json["title"] as? String == "Apple Watch")
        }
    }

    @Test func aPriceChangeKeepsTheSalePriceAndImagesReplaceTheOldOnes() async throws {
        try await TestMarket.inProcess { market in
            let id = try #require(
                try await Self.post(market, Self.appleWatch, images: [try TestImages.jpeg(dots: 1)]).json["id"] as? Int)
            let filesBefore = try await market.imageFileCount()
            let form = Self.ryanForm(
                ["password": "RyanMarket", "price": "500"],
                images: [try TestImages.jpeg(dots: 4), try TestImages.jpeg(dots: 5)])
            let patched = try await market.send(
                "PATCH", "/item/\(id)", headers: ["Content-Type: \(form.contentType)"], body: form.body)
            #expect(patched.status == 200)
            let item = try patched.json
            #expect(item["price"] as? Int == 500)
            #expect(item["discounted_price"] as? Int == 400)
            #expect((item["images"] as? [String])?.count == 2)
            try await market.sweepImages()
            #expect(try await market.imageFileCount() == filesBefore + 2, "two new pictures in, the old one out")
        }
    }

    /// One early-2021 app writes a description of its photo array into a text part named `images`
    /// beside the photos themselves (`[]` when it has none): that part is no picture.
    @Test(arguments: [("[<UIImage: 0x600003a1c000>, size {640, 480}]", 1), ("[]", 0)])
    func aTextPartNamedImagesIsNoPicture(description: String, pictures: Int) async throws {
        try await TestMarket.inProcess { market in
            let fields = Self.appleWatch.merging(["images": description]) { $1 }
            let response = try await Self.post(
                market, fields, images: try (0..<pictures).map { _ in try TestImages.jpeg() })
            #expect(response.status == 200, "\(response.text)")
            let id = try #require(try response.json["id"] as? Int)
            let item = try await market.send("GET", "/item/\(id)").json
            #expect((item["images"] as? [String])?.count == pictures)
        }
    }

    /// Form fields arrive trimmed and JSON as typed; a password is checked by one rule either way.
    @Test func aPasswordWithSpacesAroundItDeletesTheItemItCreated() async throws {
        try await TestMarket.inProcess { market in
            let fields = Self.appleWatch.merging(["password": "pw word "]) { $1 }
            let id = try #require(
                try await Self.post(market, fields, images: [try TestImages.jpeg()]).json["id"] as? Int)
            let deleted = try await market.send(
                "DELETE", "/item/\(id)", headers: ["Content-Type: application/json"],
                body: Data(#"{"password":"pw word "}"#.utf8))
            #expect(deleted.status == 200, "\(deleted.text)")
        }
    }

    /// An `id` of `null` is as if it were left out, as the API document says.
    @Test(arguments: [
        #"{"password":"RyanMarket"}"#, #"{"id": %@, "password": "RyanMarket"}"#,
        #"{"id": null, "password": "RyanMarket"}"#,
    ])
    func deleteTakesAJSONPassword(body: String) async throws {
        try await TestMarket.inProcess { market in
            let id = try #require(
                try await Self.post(market, Self.appleWatch, images: [try TestImages.jpeg()]).json["id"] as? Int)
            let wrong = try await market.send(
                "DELETE", "/item/\(id)", headers: ["Content-Type: application/json"],
                body: Data(#"{"password":"x"}"#.utf8))
            #expect(wrong.status == 404)
            let deleted = try await market.send(
                "DELETE", "/item/\(id)", headers: ["Content-Type: application/json"],
                body: Data(body.replacingOccurrences(of: "%@", with: String(id)).utf8))
            #expect(deleted.status == 200)
            #expect(try deleted.json["id"] as? Int == id)
            #expect(try await market.send("GET", "/item/\(id)").status == 404)
            try await market.sweepImages()
            #expect(try await market.imageFileCount() == 0)
        }
    }

    /// §2.6: the August 2021 apps and Ryan send the password alone and decode the deleted item;
    /// the January 2021 apps send the item's id beside it and decode `{"id": n}` (`1-sole`'s
    /// fixture `DeleteItemResponse.json`), byte for byte as each app's own request reads.
    @Test func eachCohortsDeleteIsAnsweredAsItsAppsDecodeIt() async throws {
        try await TestMarket.withServer { market in
            func deleting(_ id: Int, _ body: String) -> Data {
                wire(
                    "DELETE /item/\(id) HTTP/1.1\r\nHost: 127.0.0.1:\(market.port)\r\nContent-Type: application/json\r\n",
                    "Accept: */*\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
            func created() async throws -> Int {
                try #require(
                    try await Self.post(market, Self.appleWatch, images: [try TestImages.jpeg()]).json["id"] as? Int)
            }
            let (august, january) = (try await created(), try await created())

            let item = try await market.send(deleting(august, #"{"password":"RyanMarket"}"#))
            #expect(item.status == 200)
            #expect(item.header("Content-Type") == "application/json; charset=utf-8")
            #expect(try item.json["id"] as? Int == august)
            #expect(try item.json["title"] as? String == "Apple Watch")
            #expect(try item.json["descriptions"] as? String == "Series 6.\nBarely worn.")

            let mismatched = try await market.send(deleting(january, #"{"id":\#(august),"password":"RyanMarket"}"#))
            #expect(mismatched.status == 400)
            #expect(mismatched.text.contains("the path names item \(january)"), "\(mismatched.text)")
            #expect(try await market.send("GET", "/item/\(january)").status == 200, "nothing deleted")

            let id = try await market.send(deleting(january, #"{"id":\#(january),"password":"RyanMarket"}"#))
            #expect(id.status == 200)
            #expect(id.header("Content-Type") == "application/json; charset=utf-8")
            #expect(id.text == #"{"id":\#(january)}"#)
            let wrong = try await market.send(deleting(january, #"{"id":\#(january),"password":"Ryan"}"#))
            #expect(wrong.status == 404)
            for gone in [august, january] {
                #expect(try await market.send("GET", "/item/\(gone)").status == 404)
            }
        }
    }

    @Test func anItemWithoutPicturesShowsAPlaceholderEverywhere() async throws {
        try await TestMarket.inProcess { market in
            let created = try await Self.post(market, Self.appleWatch, images: [])
            #expect(created.status == 200)
            let id = try #require(try created.json["id"] as? Int)
            let thumbnail = try #require((try created.json["thumbnails"] as? [String])?.first)
            #expect(thumbnail.hasSuffix("/images/placeholder.png"))
            let v2 = try await market.send("GET", "/api/products/\(id)").json
            #expect(v2["thumbnail"] as? String == thumbnail)
            #expect((v2["images"] as? [Any])?.isEmpty == true)
            let placeholder = try await market.send("GET", "/images/placeholder.png")
            #expect(placeholder.status == 200, "\(placeholder.text)")
            #expect(placeholder.header("Content-Type") == "image/png")
        }
    }

    @Test func earlyCohortQuirks() async throws {
        try await TestMarket.withServer { market in
            let b = "Boundary-\(UUID().uuidString)"
            // 1-innie: `images` without [] and a broken filename; 2-neph: a quoted type; 3-ellen: no
            // filename and an unclosed name quote; 1-sodae: discountedPrice; 2-sj: no final CRLF.
            let body = wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nBike\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"descriptions\"\r\n\r\nRed.\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"price\"\r\n\r\n300000\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"discountedPrice\"\r\n\r\n250000\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"currency\"\r\n\r\nKRW\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"stock\"\r\n\r\n1\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n1234\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"image\"0\"\r\nContent-Type: \"image/jpeg\"\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 1)), "\r\n",
                "--\(b)\r\nContent-Disposition: form-data; name=\"images[]\r\nContent-Type: image/jpeg\r\n\r\n",
                WirePiece(try TestImages.jpeg(dots: 2)), "\r\n--\(b)--")
            let response = try await market.send(
                "POST", "//item", headers: ["Content-Type: multipart/form-data; boundary=\(b)"], body: body)
            #expect(response.status == 200, "\(response.text)")
            #expect(try response.json["discounted_price"] as? Int == 250_000)
            #expect((try response.json["images"] as? [Any])?.count == 2)
        }
    }

    @Test(arguments: [
        (["currency": "JPY"], "currency"), (["discounted_price": "500"], "discounted_price"),
        (["title": ""], "title"), (["title": " "], "title"), (["descriptions": " "], "descriptions"),
        (["password": ""], "password"), (["stock": "many"], "stock"),
    ])
    func refusedItemsNameTheFieldInV1Terms(overrides: [String: String], field: String) async throws {
        try await TestMarket.inProcess { market in
            let response = try await Self.post(
                market, Self.appleWatch.merging(overrides) { $1 }, images: [try TestImages.jpeg()])
            #expect(response.status == 400, "\(response.text)")
            #expect(try response.json["field"] as? String == field)
            #expect((try response.json["reason"] as? String)?.hasPrefix("\(field) ") == true, "named in the reason too")
            #expect(try await market.productCount() == 0)
            #expect(try await market.imageFileCount() == 0)
        }
    }
}

import Foundation
import MarketDemo
import MarketTestSupport
import Testing

/// The request inspector's JSON twin and rehearsed faults, as a learner's script uses them.
@Suite struct InspectorTests {
    static func credentials(_ vendor: DemoCatalogue.DemoVendor) -> [String] {
        ["identifier: \(vendor.identifier)", "secret: \(vendor.secret)"]
    }

    /// The vendor's recorded requests, newest first, once there are at least `count`. Records are
    /// kept after each answer has gone out, so this waits for them; it gives up after 10 s.
    static func requests(
        _ market: TestMarket, of vendor: DemoCatalogue.DemoVendor, atLeast count: Int
    ) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let answer = try await market.send("GET", "/inspector/requests", headers: credentials(vendor))
            #expect(answer.status == 200, "\(answer.text)")
            let requests = try #require(try answer.json["requests"] as? [[String: Any]])
            if requests.count >= count || ContinuousClock.now > deadline { return requests }
            await Task.yield()
        }
    }

    /// Sets papri's faults through the JSON twin, as `json` says.
    static func setFaults(_ json: String, _ market: TestMarket) async throws -> RawResponse {
        try await market.send(
            "PUT", "/inspector/faults", headers: credentials(TestMarket.papri) + ["Content-Type: application/json"],
            body: Data(json.utf8))
    }

    /// Nala Market's body, quirks and all: a CRLF before the first boundary, no space after
    /// `Content-Disposition:`, a camelCase key, a price sent as text, a PNG declared as JPEG.
    static func quirkyCreate(
        price: String, stock: String = "1", as vendor: DemoCatalogue.DemoVendor = TestMarket.nala
    ) throws -> (body: Data, contentType: String) {
        let b = "nala-\(UUID().uuidString)"
        let params =
            #"{"name":"Quirky","description":"Sent as a learner sends it.","price":\#(price),"currency":"KRW","discountedPrice":100,"stock":\#(stock),"secret":"\#(vendor.secret)"}"#
        let body = wire(
            "\r\n--\(b)\r\nContent-Disposition:form-data; name=\"params\"\r\n\r\n\(params)\r\n",
            "--\(b)\r\nContent-Disposition:form-data; name=\"images\"; filename=\"cat.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n",
            WirePiece(try TestImages.png()), "\r\n--\(b)--\r\n")
        return (body, "multipart/form-data; boundary=\(b)")
    }

    /// A delete secret the market issued is the vendor's key to the product: their records show
    /// that it came, never the secret itself.
    @Test func anIssuedDeleteSecretIsMaskedInTheAnswersRecorded() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Lamp")
            let body = Data(#"{"secret":"\#(TestMarket.papri.secret)"}"#.utf8)
            let headers = ["identifier: \(TestMarket.papri.identifier)", "Content-Type: application/json"]
            var issued: [String] = []
            for action in ["secret", "archived"] {
                let answer = try await market.send(
                    "POST", "/api/products/\(product.id)/\(action)", headers: headers, body: body)
                #expect(answer.status == 200, "\(answer.text)")
                issued.append(answer.text)
            }
            let requests = try await Self.requests(market, of: TestMarket.papri, atLeast: 2)
            let answers = requests.prefix(2).compactMap { ($0["request"] as? [String: Any])?["answer"] as? String }
            #expect(Set(answers) == ["•••", "/api/products/\(product.id)/•••"], "\(answers)")
            let secrets = issued.compactMap { $0.split(separator: "/").last.map(String.init) }
            #expect(secrets.count == 2 && secrets.allSatisfy { UUID(uuidString: $0) != nil }, "\(issued)")
            let page = try await market.send("GET", "/inspector/requests", headers: Self.credentials(TestMarket.papri))
            #expect(!secrets.contains { page.text.contains($0) })
        }
    }

    /// However a request carries a secret (a bare JSON string, a form's part of its own, a query, the
    /// vendor's secret where a DELETE's delete secret goes, a delete secret before a stray query, a path
    /// a refusal repeats, a key the market does not read, a form without its boundary), the team's
    /// records and the refusals never show it.
    @Test func aSecretInAnyShapeOfRequestIsMaskedInTheRecordsAndRefusals() async throws {
        try await TestMarket.inProcess { market in
            let id = try await market.addProduct("Lamp").id
            let papri = TestMarket.papri
            let team = try await TeamAddressTests.teamPath(market, papri)
            let deleteSecret = UUID().uuidString.lowercased()
            _ = try await market.send(
                "POST", "\(team)/api/products/\(id)/secret", headers: ["Content-Type: application/json"],
                body: Data("\"\(papri.secret)\"".utf8))
            _ = try await market.send("DELETE", "\(team)/api/products/\(id)/\(papri.secret)")
            _ = try await market.send("DELETE", "\(team)/api/products/\(id)/\(deleteSecret)?page_no=1")
            _ = try await market.send("GET", "\(team)/api/products/\(id)?secret=\(papri.secret)")
            _ = try await market.send(
                "GET", "\(team)/api/products/\(id)", headers: ["X-Vendor-Secret: \(papri.secret)"])
            let refused = try await market.send("POST", "\(team)/api/products/\(id)/\(deleteSecret)")
            #expect(refused.status == 405 && refused.text.contains("/api/products/\(id)/•••"), "\(refused.text)")
            let boundary = "ryan"
            _ = try await market.send(
                "PATCH", "\(team)/item/\(id)", headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"],
                body: Data(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(papri.secret)\r\n--\(boundary)--\r\n"
                        .utf8))
            // A key the market does not read, and a form's part in a body that declares no boundary.
            _ = try await market.send(
                "PATCH", "\(team)/api/products/\(id)", headers: ["Content-Type: application/json"],
                body: Data(#"{"stock":1,"secretKey":"\#(papri.secret)"}"#.utf8))
            _ = try await market.send(
                "PATCH", "\(team)/item/\(id)", headers: ["Content-Type: multipart/form-data"],
                body: Data(
                    "--x\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(papri.secret)\r\n--x--\r\n".utf8)
            )
            // Bodies no parser reads as JSON: a secret's key spelled with escapes, its value quoted or not,
            // and a value cut off before its closing quote.
            for body in [
                #"{"stock" 1, "\u0073ecret": "\#(papri.secret)"}"#, #"{"stock" 1, "secr\u0065t": \#(papri.secret)}"#,
                #"{"stock": 1, "secret": "\#(papri.secret)"#,
            ] {
                _ = try await market.send(
                    "PATCH", "\(team)/api/products/\(id)", headers: ["Content-Type: application/json"],
                    body: Data(body.utf8))
            }
            let requests = try await Self.requests(market, of: papri, atLeast: 12)
            let records = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
            #expect(requests.count >= 12)
            #expect(!records.contains(papri.secret) && !records.contains(deleteSecret), "\(records)")
            let paths = Set(requests.compactMap { ($0["request"] as? [String: Any])?["path"] as? String })
            for masked in [
                "\(team)/api/products/\(id)/•••", "\(team)/api/products/\(id)/•••?page_no=1",
                "\(team)/api/products/\(id)?secret=•••",
            ] {
                #expect(paths.contains(masked), "\(paths)")
            }
        }
    }

    /// Texts the inspector masks secrets in, built to make a backtracking pattern take minutes: each is
    /// recorded as soon as any other, and a secret after one is still masked.
    @Test func aBodyBuiltToSlowTheMaskingDownIsRecordedAtOnce() async throws {
        try await TestMarket.inProcess { market in
            let id = try await market.addProduct("Lamp").id
            let papri = TestMarket.papri
            let team = try await TeamAddressTests.teamPath(market, papri)
            let size = 64 * 1024
            for text in [
                String(repeating: "a", count: size), "\"" + String(repeating: "\\\\", count: size / 2),
                String(repeating: "a:", count: size / 2), String(repeating: "name=", count: size / 5),
                "\"" + String(repeating: "\\\"", count: size / 2),
            ] {
                _ = try await market.send(
                    "PATCH", "\(team)/api/products/\(id)", headers: ["Content-Type: text/plain"],
                    body: Data((text + " secret=\(papri.secret)").utf8))
            }
            // JSON nested deep in its first `params` part, then thousands of parts of that name.
            let nested =
                String(repeating: "[", count: 30) + Array(repeating: "0", count: 4000).joined(separator: ",")
                + String(repeating: "]", count: 30)
            let params = "--b\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n{\"stock\": \(nested)}\r\n"
            _ = try await market.send(
                "PATCH", "\(team)/item/\(id)", headers: ["Content-Type: multipart/form-data; boundary=b"],
                body: Data(
                    (params
                        + String(
                            repeating: "--b\r\nContent-Disposition: form-data; name=params\r\n\r\n\r\n", count: 2000)
                        + "--b--\r\n").utf8))
            let requests = try await Self.requests(market, of: papri, atLeast: 6)
            #expect(requests.count == 6)
            for request in requests {
                let size = try JSONSerialization.data(withJSONObject: request).count
                #expect(size < 400 * 1024, "a record of \(size) bytes")
            }
            let records = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
            #expect(!records.contains(papri.secret))
        }
    }

    @Test func aVendorSeesTheirOwnRequestsWithWhatTheMarketForgaveAndWhyOneWasRefused() async throws {
        try await TestMarket.withServer { market in
            let accepted = try Self.quirkyCreate(price: #""15000""#)
            let created = try await market.send(
                "POST", "/api/products",
                headers: ["identifier: \(TestMarket.nala.identifier)", "Content-Type: \(accepted.contentType)"],
                body: accepted.body)
            #expect(created.status == 201, "\(created.text)")
            let refused = try Self.quirkyCreate(price: "-5")
            let refusal = try await market.send(
                "POST", "/api/products",
                headers: ["identifier: \(TestMarket.nala.identifier)", "Content-Type: \(refused.contentType)"],
                body: refused.body)
            #expect(refusal.status == 400)
            #expect(
                try refusal.json["reason"] as? String == "price must be 0 or more", "the API's own body is unchanged")

            let requests = try await Self.requests(market, of: TestMarket.nala, atLeast: 2)
            #expect(requests.count == 2)
            let newest = try #require(requests.first?["request"] as? [String: Any])
            let oldest = try #require(requests.last?["request"] as? [String: Any])
            #expect(newest["status"] as? Int == 400 && oldest["status"] as? Int == 201)
            #expect(newest["method"] as? String == "POST" && newest["path"] as? String == "/api/products")
            let quirks = try #require(oldest["quirks"] as? [String])
            #expect(quirks.contains("CRLF before the first boundary (ignored)"))
            #expect(quirks.contains("no space after Content-Disposition:"))
            #expect(quirks.contains("camelCase key discountedPrice read as discounted_price"))
            #expect(quirks.contains(#"price sent as text "15000" and read as a number"#))
            #expect(quirks.contains("file part images declares image/jpeg but its bytes are a PNG image"))
            let parts = try #require(oldest["parts"] as? [[String: Any]])
            #expect(parts.map { $0["name"] as? String } == ["params", "images"])
            #expect(
                parts[1]["filename"] as? String == "cat.jpg" && parts[1]["sniffed_type"] as? String == "a PNG image")
            let refusalShown = try #require(newest["refusal"] as? [String: Any])
            #expect(refusalShown["rule"] as? String == "price must be 0 or more")
            #expect(refusalShown["field"] as? String == "price")
            #expect((refusalShown["correct_shape"] as? String)?.contains("a part named params holding JSON") == true)
            #expect((newest["answer"] as? String)?.contains("price must be 0 or more") == true)

            let recorded = String(decoding: try JSONSerialization.data(withJSONObject: requests), as: UTF8.self)
            #expect(!recorded.contains(TestMarket.nala.secret), "the secret is masked everywhere")
            let curl = try #require(oldest["curl"] as? String)
            #expect(curl.hasPrefix("curl -X POST 'http://127.0.0.1:\(market.port)/api/products'"))
            #expect(curl.contains(#""secret": "'"$OPENMARKET_SECRET"'""#))
            #expect(curl.contains("-F 'images=@cat.jpg;type=image/jpeg'"))
        }
    }

    /// Every refused shape the inspector knows, each carrying papri's secret where a learner put it.
    static let refusedShapes: [(contentType: String, body: String)] = {
        let b = "shape"
        let params = #"{"name":"Lamp","description":"x","price":100,"currency":"KRW","secret":"80sgmjjk9v"}"#
        let part = "Content-Disposition: form-data; name=\"params\""
        return [
            (
                "multipart/form-data; boundary=\(b)",
                "--\(b)\r\n\(part.replacingOccurrences(of: "params", with: "param"))\r\n\r\n\(params)\r\n--\(b)--\r\n"
            ),
            ("multipart/form-data", "--\(b)\r\n\(part)\r\n\r\n\(params)\r\n--\(b)--\r\n"),
            ("multipart/form-data; boundary=\(b)", "--\(b)\r\n\(part)\r\n\(params)\r\n--\(b)--\r\n"),
            ("multipart/form-data; boundary=\(b)", "--\(b)\(part)\(params)--\(b)--"),
            ("multipart/form-data; boundary=other", "--\(b)\r\n\(part)\r\n\r\n\(params)\r\n--\(b)--\r\n"),
            ("application/json", "{'Secret': '80sgmjjk9v', 'name': 1"),
            ("application/json", #"{"password": "80sgmjjk9v\" and more", "name": "#),
            ("application/x-www-form-urlencoded", "name=Lamp&secret=80sgmjjk9v"),
            ("application/json", params),
            ("text/plain", "secret: 80sgmjjk9v"),
        ]
    }()

    @Test func aSecretNeverShowsInARecordWhateverShapeTheRequestHad() async throws {
        try await TestMarket.inProcess { market in
            for shape in Self.refusedShapes {
                let refused = try await market.send(
                    "POST", "/api/products",
                    headers: ["identifier: \(TestMarket.papri.identifier)", "Content-Type: \(shape.contentType)"],
                    body: Data(shape.body.utf8))
                #expect((400..<500).contains(refused.status), "\(shape.body)")
            }
            let requests = try await Self.requests(market, of: TestMarket.papri, atLeast: Self.refusedShapes.count)
            #expect(requests.count == Self.refusedShapes.count)
            for record in requests {
                let text = String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
                #expect(!text.contains(TestMarket.papri.secret), "\(text)")
            }
            let curls = requests.compactMap { ($0["request"] as? [String: Any])?["curl"] as? String }
            #expect(curls.filter { $0.contains("$OPENMARKET_SECRET") }.count >= 7, "the secret's place is kept")
        }
    }

    /// What a fuzzer sends must never bring the inspector down: amounts far beyond any integer,
    /// fractions, and text where numbers belong are refused by the API and recorded as they came.
    @Test func outlandishAmountsAreRecordedNotTrappedOn() async throws {
        try await TestMarket.inProcess { market in
            let product = try await market.addProduct("Lamp", by: TestMarket.papri)
            for body in [
                #"{"stock":-2.4619157292809174e+33,"price":2000.0,"secret":"x"}"#,
                #"{"price":1e400,"discounted_price":-4050785768179528.5,"secret":"x"}"#,
            ] {
                let refused = try await market.send(
                    "PATCH", "/api/products/\(product.id)",
                    headers: ["identifier: \(TestMarket.papri.identifier)", "Content-Type: application/json"],
                    body: Data(body.utf8))
                #expect(refused.status == 400 || refused.status == 401, "\(refused.text)")
                _ = try await market.send(
                    "GET", "/items/1", headers: ["Content-Type: application/json"], body: Data(body.utf8))
            }
            let recorded = try await Self.requests(market, of: TestMarket.papri, atLeast: 2)
            #expect(recorded.count == 2)
            #expect(try await market.send("GET", "/healthChecker").status == 200, "the server is still up")
        }
    }

    @Test func nobodySeesAnotherVendorsRequestsAndAWrongSecretSeesNothing() async throws {
        try await TestMarket.withServer { market in
            let created = try await MarketPeer(port: market.port).create(
                "Papri's", by: TestMarket.papri, images: [try TestImages.jpeg()])
            #expect(created.status == 201)
            #expect(try await Self.requests(market, of: TestMarket.papri, atLeast: 1).count == 1)
            let judys = try await market.send("GET", "/inspector/requests", headers: Self.credentials(TestMarket.judy))
            #expect(judys.status == 200)
            #expect((try judys.json["requests"] as? [Any])?.isEmpty == true)
            let wrong = try await market.send(
                "GET", "/inspector/requests", headers: ["identifier: \(TestMarket.papri.identifier)", "secret: nope"])
            #expect(wrong.status == 401)
            #expect(wrong.text.contains("do not match a vendor"))
        }
    }

    @Test func aVendorsFaultsFailTheirRequestsAndNobodyElses() async throws {
        try await TestMarket.withServer { market in
            let set = try await Self.setFaults(#"{"fail_percent":100,"status":503,"seed":7}"#, market)
            #expect(set.status == 200, "\(set.text)")
            #expect((try set.json["faults"] as? [String: Any])?["fail_percent"] as? Int == 100)
            let peer = MarketPeer(port: market.port)
            let failed = try await peer.create("Papri's", by: TestMarket.papri, images: [try TestImages.jpeg()])
            #expect(failed.status == 503)
            #expect((try failed.json["reason"] as? String)?.contains("a failure you rehearse") == true)
            #expect(try await market.productCount() == 0, "the failure came before the market")
            let judys = try await peer.create("Judy's", by: TestMarket.judy, images: [try TestImages.jpeg()])
            #expect(judys.status == 201, "another vendor's request is untouched")
            let anonymous = try await market.send("GET", "/api/products?page_no=1&items_per_page=10")
            #expect(anonymous.status == 200)

            let shown = try await Self.requests(market, of: TestMarket.papri, atLeast: 1)
            let fault = (shown.first?["request"] as? [String: Any])?["fault"] as? String
            #expect(fault == "Rehearsed: answered 503 without reaching the market")
            #expect(
                (shown.first?["request"] as? [String: Any])?["refusal"] == nil, "a rehearsed failure refuses nothing")

            let cleared = try await market.send(
                "DELETE", "/inspector/faults", headers: Self.credentials(TestMarket.papri))
            #expect(cleared.status == 200)
            let again = try await peer.create("Papri's", by: TestMarket.papri, images: [try TestImages.jpeg()])
            #expect(again.status == 201)
        }
    }

    @Test func aDroppedConnectionGetsNoAnswerAndASlowBodyArrivesWhole() async throws {
        try await TestMarket.withServer { market in
            let headers = Self.credentials(TestMarket.papri) + ["Content-Type: application/json"]
            let list = wire(
                "GET /api/products?page_no=1&items_per_page=5 HTTP/1.1\r\nHost: x\r\n",
                "identifier: \(TestMarket.papri.identifier)\r\n\r\n")
            let drop = try await market.send(
                "PUT", "/inspector/faults", headers: headers, body: Data(#"{"drop_percent":100}"#.utf8))
            #expect(drop.status == 200)
            await #expect(throws: RawHTTPError.self) { try await RawHTTP.send(list, port: market.port) }
            let slow = try await market.send(
                "PUT", "/inspector/faults", headers: headers, body: Data(#"{"slow_body_ms":300}"#.utf8))
            #expect(slow.status == 200)
            let trickled = try await RawHTTP.send(list, port: market.port)
            #expect(trickled.status == 200)
            #expect(try trickled.json["items_per_page"] as? Int == 5, "the whole body arrives, only slowly")
            let shown = try await Self.requests(market, of: TestMarket.papri, atLeast: 2).compactMap {
                ($0["request"] as? [String: Any])?["fault"] as? String
            }
            #expect(
                shown.prefix(2) == [
                    "Rehearsed: the answer trickled over 300 ms",
                    "Rehearsed: the connection was dropped without an answer",
                ])
        }
    }

    @Test(arguments: [
        (#"{"fail_percent":101}"#, "fail_percent must be from 0 to 100"),
        (#"{"fail_percent":10,"status":200}"#, "status must be an error status, from 400 to 599"),
        (#"{"latency_ms":100,"jitter_ms":400}"#, "jitter_ms must be from 0 to the latency (100 ms)"),
        (
            "latency",
            #"the body must be JSON such as {"latency_ms":800,"jitter_ms":400,"fail_percent":10,"status":503,"seed":7}"#
        ),
    ])
    func faultsThatCannotBeAreRefusedInWords(body: String, reason: String) async throws {
        try await TestMarket.inProcess { market in
            let refused = try await Self.setFaults(body, market)
            #expect(refused.status == 400)
            #expect(try refused.json["reason"] as? String == reason)
        }
    }

    @Test func aVendorDeletesAllTheirProductsAtOnceAndOnlyTheirs() async throws {
        try await TestMarket.withServer { market in
            let peer = MarketPeer(port: market.port)
            for name in ["One", "Two"] {
                #expect(
                    try await peer.create(name, by: TestMarket.papri, images: [try TestImages.jpeg()]).status == 201)
            }
            #expect(try await peer.create("Judy's", by: TestMarket.judy, images: [try TestImages.jpeg()]).status == 201)
            let wrong = try await market.send(
                "DELETE", "/inspector/products", headers: ["identifier: \(TestMarket.papri.identifier)", "secret: x"])
            #expect(wrong.status == 401)
            #expect(try await market.productCount() == 3)
            let deleted = try await market.send(
                "DELETE", "/inspector/products", headers: Self.credentials(TestMarket.papri))
            #expect(deleted.status == 200)
            #expect(try deleted.json["deleted"] as? Int == 2)
            let left = try await market.send("GET", "/api/products?page_no=1&items_per_page=10").json
            #expect((left["pages"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Judy's"])
        }
    }
}

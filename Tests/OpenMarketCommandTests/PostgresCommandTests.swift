import Foundation
import MarketTestSupport
import Testing

/// `openmarket` with `--database`: the demo, a database that is not there at start, one that goes
/// away under a running server, and a market copied from its folder with `migrate`.
@Suite(.serialized) struct PostgresCommandTests {
    static let papri = TestMarket.papri

    @Test func aDatabaseThatDoesNotAnswerAtStartIsOneLineAndAFailingExit() async throws {
        let port = try FreePort.pick()
        let url = "postgres://market:hush@127.0.0.1:\(port)/market"
        for command in [["serve", "--port", "0"], ["vendors", "list"]] {
            let result = try await OpenMarketBinary.run(command + ["--database", url])
            #expect(result.status != 0)
            let lines = result.errors.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(lines.count == 1, "\(result.errors)")
            #expect(result.errors.contains("127.0.0.1:\(port)") && result.errors.contains("check that PostgreSQL"))
            #expect(!result.errors.contains("hush"), "the password is never shown")
        }
    }

    @Test func aLostDatabaseIs503UntilItIsBackAndTheServerRecoversByItself() async throws {
        let cluster = try await PostgresCluster.start()
        let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--database", cluster.url])
        let peer = MarketPeer(port: try await server.listeningPort())
        let list = try await peer.send("GET", "/api/products?page_no=1&items_per_page=1")
        #expect(try list.json["total_count"] as? Int == 64, "--demo fills an empty PostgreSQL market")
        let items = try #require(try list.json["pages"] as? [[String: Any]])
        let picture = try #require(URL(string: items.first?["thumbnail"] as? String ?? "")?.path)
        #expect(try await peer.send("GET", picture).status == 200)

        try await cluster.stop(immediately: true)
        let cached = try await peer.send("GET", picture)
        #expect(cached.status == 200 && !cached.body.isEmpty, "a picture served once is served without the database")
        async let detail = peer.send("GET", "/api/products/1")
        async let page = peer.send("GET", "/", headers: ["Accept: text/html", "Accept-Language: en"])
        async let create = peer.create("While down", by: Self.papri, images: [try TestImages.jpeg()])
        let (api, storefront, refused) = try await (detail, page, create)
        #expect(api.status == 503)
        #expect(
            try api.json["reason"] as? String
                == "the market's database cannot be reached just now; try again in a moment")
        #expect(storefront.status == 503 && storefront.text.contains("Closed for a moment"))
        #expect(refused.status == 503)
        let notReady = try await peer.send("GET", "/readyz")
        #expect(notReady.status == 503)
        #expect(try notReady.json["ready"] as? Bool == false)
        #expect((try notReady.json["database"] as? String)?.contains("cannot be reached") == true)
        #expect(
            try await peer.send("GET", "/healthChecker").status == 200, "the apps' health check stays as they expect")

        try await cluster.restart()
        let deadline = ContinuousClock.now + .seconds(30)
        var recovered = try await peer.send("GET", "/api/products/1")
        while recovered.status != 200 && ContinuousClock.now < deadline {
            recovered = try await peer.send("GET", "/api/products/1")
        }
        #expect(recovered.status == 200, "the same server answers again, without a restart")
        #expect(try await peer.send("GET", "/readyz").json["ready"] as? Bool == true)
        #expect(try await peer.create("After", by: Self.papri, images: [try TestImages.jpeg()]).status == 201)
        #expect(try await server.terminate() == 0)
        await cluster.remove()
    }
}

/// `openmarket migrate` copies a market from its folder into PostgreSQL: every answer of both APIs,
/// in both flavours, and every picture's bytes are the same afterwards.
@Suite struct MigrateCommandTests {
    static let (papri, judy) = (TestMarket.papri, TestMarket.judy)
    static let hosts = ["market.example:8080", "openmarket.example"]

    /// Posts a 2021 item as Ryan Market did.
    static func postItem(_ peer: MarketPeer, title: String, images: [Data]) async throws -> Int {
        let b = "ryan-\(UUID().uuidString)"
        var body = Data()
        let fields = [
            "title": title, "descriptions": "Old but gold.", "price": "450", "discounted_price": "400",
            "currency": "USD", "stock": "3", "password": "RyanMarket",
        ]
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            body += wire("--\(b)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for image in images {
            body += wire(
                "--\(b)\r\nContent-Disposition: form-data; name=\"images[]\"; filename=\"a.jpg\"\r\n",
                "Content-Type: image/jpeg\r\n\r\n", WirePiece(image), "\r\n")
        }
        body += wire("--\(b)--\r\n")
        let response = try await peer.send(
            "POST", "/item", headers: ["Content-Type: multipart/form-data; boundary=\(b)"], body: body)
        return try #require(try response.json["id"] as? Int, "\(response.text)")
    }

    /// The same bytes, or for JSON the same values: a server may write an object's keys in any order.
    static func same(_ a: RawResponse, _ b: RawResponse) -> Bool {
        guard a.header("Content-Type")?.hasPrefix("application/json") == true,
            let left = try? JSONSerialization.jsonObject(with: a.body) as? NSObject,
            let right = try? JSONSerialization.jsonObject(with: b.body) as? NSObject
        else { return a.body == b.body }
        return left.isEqual(right)
    }

    /// Every address an app reads, with the pictures the answers name, through each host.
    static func answers(port: Int, ids: [Int]) async throws -> [String: RawResponse] {
        var answers: [String: RawResponse] = [:]
        for host in hosts {
            let peer = MarketPeer(port: port, host: host)
            var paths = [
                "/api/products?page_no=1&items_per_page=20", "/api/products?page_no=2&items_per_page=2",
                "/api/products?page_no=1&items_per_page=20&search_value=made", "/items/1",
            ]
            paths += ids.flatMap { ["/api/products/\($0)", "/item/\($0)"] }
            for path in paths {
                let response = try await peer.send("GET", path)
                answers["\(host)\(path)"] = response
                for url in response.text.matches(of: /http:\/\/[^"]+\/images\/[^"]+/) {
                    let imagePath = try #require(URL(string: String(url.output))?.path)
                    answers["\(host)\(imagePath)"] = try await peer.send("GET", imagePath)
                }
            }
        }
        return answers
    }

    @Test func aMigratedMarketAnswersEveryRequestAsBeforeAndKeepsSecretsSessionsAndIds() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for vendor in [Self.papri, Self.judy] {
            _ = try await OpenMarketBinary.run([
                "vendors", "add", "--data-dir", folder, "--name", vendor.name, "--identifier", vendor.identifier,
                "--secret", vendor.secret,
            ])
        }
        let before = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", folder])
        let old = MarketPeer(port: try await before.listeningPort())
        var ids: [Int] = []
        for (index, vendor) in [Self.papri, Self.judy, Self.papri].enumerated() {
            let pictures = try (0...index).map { try TestImages.jpeg(dots: $0 + 1) }
            let created = try await old.create("Made \(index)", by: vendor, images: pictures)
            ids.append(try #require(try created.json["id"] as? Int))
        }
        let gone = try #require(
            try await old.create("Gone", by: Self.judy, images: [try TestImages.png()]).json["id"] as? Int)
        #expect(try await old.delete(gone, by: Self.judy).status == 200)
        ids.append(try await Self.postItem(old, title: "Apple Watch", images: [try TestImages.jpeg(dots: 5)]))
        ids.append(try await Self.postItem(old, title: "No pictures", images: []))
        #expect(
            try await old.patch(ids[0], #"{"price":2000,"secret":"\#(Self.papri.secret)"}"#, by: Self.papri).status
                == 202)
        let kept = try await old.send(
            "POST", "/api/products/\(ids[2])/secret", headers: ["identifier: \(Self.papri.identifier)"],
            body: Data(#"{"secret":"\#(Self.papri.secret)"}"#.utf8))
        var visitor = StorefrontVisitor(port: old.port)
        #expect(try await visitor.signIn().status == 303)
        let expected = try await Self.answers(port: old.port, ids: ids + [gone])
        #expect(try await before.terminate() == 0)

        let database = try await TestStorage.createDatabase()
        let migrated = try await OpenMarketBinary.run(["migrate", "--data-dir", folder, "--to", database])
        #expect(migrated.status == 0, "\(migrated.errors)")
        #expect(migrated.output.contains(/^done: 3 vendors, 5 products and \d+ pictures now live in the database;/))
        #expect(
            migrated.output.hasSuffix("; start it with openmarket serve --database \(database)\n"),
            "the address it migrated to, as given: \(migrated.output)")
        #expect(migrated.errors.contains("products: 5 of 5 (100 %)"), "a pipe gets plain lines of how far it is")

        let listed = try await OpenMarketBinary.run(["vendors", "list", "--database", database])
        #expect(
            listed.output.contains("papri") && listed.output.contains("judy") && listed.output.contains("2021 apps"))

        let after = try OpenMarketBinary.start(["serve", "--port", "0", "--database", database])
        let new = MarketPeer(port: try await after.listeningPort())
        let actual = try await Self.answers(port: new.port, ids: ids + [gone])
        #expect(actual.count == expected.count && expected.count > 40)
        for (address, answer) in expected {
            let now = try #require(actual[address])
            #expect(now.status == answer.status && Self.same(now, answer), "\(address): \(now.text)")
        }

        let deleted = try await new.send("DELETE", "/api/products/\(ids[2])/\(kept.text)")
        #expect(deleted.status == 200, "a delete secret issued before the move still works")
        let next = try #require(
            try await new.create("New", by: Self.papri, images: [try TestImages.jpeg()]).json["id"] as? Int)
        #expect(next > gone, "an id given out once, even to a deleted product, is never given again")
        visitor.port = new.port
        #expect(try await visitor.get("/products/new").text.contains("Sign out"), "sign-ins survive the move")
        #expect(try await after.terminate() == 0)

        let again = try await OpenMarketBinary.run(["migrate", "--data-dir", folder, "--to", database])
        #expect(again.status != 0 && again.errors.contains("holds a market already"))
        try await TestStorage.dropDatabase(database)
    }
}

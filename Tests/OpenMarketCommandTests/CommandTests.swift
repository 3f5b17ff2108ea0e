import Foundation
import MarketTestSupport
import Testing

/// The `openmarket` binary as a person runs it.
@Suite struct CommandTests {
    let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-cli-\(UUID().uuidString)")
        .path

    @Test func vendorsAddPrintsCredentialsOnceAndListNeverShowsSecrets() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let added = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "papri",
            "--identifier", "A09D8D1A-D1B8-11EC-9676-BD41BB2BB233", "--secret", "80sgmjjk9v",
        ])
        #expect(added.status == 0)
        #expect(added.output.contains("identifier: a09d8d1a-d1b8-11ec-9676-bd41bb2bb233"))
        #expect(added.output.contains("secret:     80sgmjjk9v"))
        let generated = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "new seller",
        ])
        #expect(generated.status == 0)
        let secret = try #require(generated.output.firstMatch(of: /secret:\s+([a-z0-9]{16})/)?.1)
        let listed = try await OpenMarketBinary.run(["vendors", "list", "--data-dir", dataDir])
        #expect(listed.status == 0)
        #expect(listed.output.contains("papri") && listed.output.contains("new seller"))
        #expect(!listed.output.contains("80sgmjjk9v") && !listed.output.contains(String(secret)))
        let database = try Data(contentsOf: URL(fileURLWithPath: dataDir).appendingPathComponent("market.sqlite"))
        #expect(database.firstRange(of: Data("80sgmjjk9v".utf8)) == nil, "secrets are stored only as bcrypt hashes")
    }

    /// Judy's app shows Edit only on products whose `vendor_id` is its team's number, 82.
    @Test func vendorsAddTakesTheVendorIdAnAppExpects() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let added = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "judy", "--vendor-id", "82",
            "--identifier", TestMarket.judy.identifier, "--secret", TestMarket.judy.secret,
        ])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("vendor_id:  82"))
        #expect(added.output.firstMatch(of: /address:    http:\/\/[0-9.]+:8080\/teams\/82\n/) != nil, "\(added.output)")
        let listed = try await OpenMarketBinary.run([
            "vendors", "list", "--data-dir", dataDir, "--market-address", "http://192.168.0.10:8080/",
        ])
        #expect(listed.output.contains(/http:\/\/192\.168\.0\.10:8080\/teams\/82 +judy/), "\(listed.output)")
        let twice = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "other", "--vendor-id", "82",
        ])
        #expect(twice.status != 0)
        #expect(twice.errors.contains("a vendor with the id 82 exists already"))
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let created = try await MarketPeer(port: try await server.listeningPort())
            .create("Team product", by: TestMarket.judy, images: [try TestImages.jpeg()])
        #expect(created.status == 201, "\(created.text)")
        #expect(try created.json["vendor_id"] as? Int == 82)
        #expect(try await server.terminate() == 0)
    }

    /// A team's own port (`serve --team-ports`) is the team's whatever shape its app builds URLs
    /// in, and the pictures in its answers keep the port.
    /// `vendors add` beside a running market prints the addresses that market serves, its port and its team
    /// ports; with none serving the folder, it says what the printed address assumes and how to give the real one.
    @Test func vendorsAddPrintsTheAddressesOfTheMarketServingTheFolder() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let teamPort = try FreePort.pick()
        let server = try OpenMarketBinary.start([
            "serve", "--port", "0", "--data-dir", dataDir, "--team-ports", String(teamPort),
        ])
        let port = try await server.listeningPort()
        let added = try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "team 1"])
        #expect(added.output.contains("address:    http://127.0.0.1:\(port)/teams/1\n"), "\(added.output)")
        #expect(added.output.contains("own port:   http://127.0.0.1:\(teamPort)\n"))
        #expect(added.errors.isEmpty, "\(added.errors)")
        let listed = try await OpenMarketBinary.run(["vendors", "list", "--data-dir", dataDir])
        let lines = listed.output.split(separator: "\n")
        let row = try #require(lines.first { $0.hasSuffix("team 1") })
        #expect(
            row.split(separator: " ", omittingEmptySubsequences: true).suffix(4)
                == ["http://127.0.0.1:\(port)/teams/1", "http://127.0.0.1:\(teamPort)", "team", "1"], "\(row)")
        // Every column starts where its heading does, the port's row and the heading's alike.
        let name = try #require(lines.first?.range(of: "name")?.lowerBound.utf16Offset(in: lines[0]))
        #expect(row.count - "team 1".count == name, "\(listed.output)")
        #expect(try await server.terminate() == 0)

        let alone = try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "team 2"])
        #expect(alone.status == 0)
        #expect(alone.output.contains("address:    http://"))
        #expect(alone.errors.contains("No market is serving \(dataDir)"), "\(alone.errors)")
        #expect(alone.errors.contains("--market-address http://HOST:PORT"))
    }

    /// The teachers' page's own class: `--team-ports` for the class, and "team 82" registered with the number its app
    /// knows from the old server. Teams get ports in the order they join, whatever their vendor_id; an app that drops
    /// its base URL's path reaches its team on its port; and a team past the range is told at once how to widen it.
    @Test func teamsGetPortsInTheOrderTheyJoinWhateverTheirVendorID() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let teamPort = try FreePort.pick()
        let server = try OpenMarketBinary.start([
            "serve", "--port", "0", "--data-dir", dataDir, "--team-ports", String(teamPort),
        ])
        let port = try await server.listeningPort()
        let judy = TestMarket.judy
        let first = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "team 82", "--vendor-id", "82",
            "--identifier", judy.identifier, "--secret", judy.secret,
        ])
        #expect(first.output.contains("vendor_id:  82\n"), "\(first.output)\(first.errors)")
        #expect(first.output.contains("own port:   http://127.0.0.1:\(teamPort)\n"))
        let next = try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "team 83"])
        #expect(next.output.contains("vendor_id:  83\n"))
        #expect(
            next.output.contains(
                "own port:   none: --team-ports \(teamPort) holds 1 team, all seated before this one; "
                    + "start the market with --team-ports \(teamPort)-\(teamPort + 1) to give it one"),
            "\(next.output)")

        // Nala Market's way: the path dropped, the team's port kept.
        let created = try await MarketPeer(port: teamPort).create(
            "Through its port", by: judy,
            images: [
                try TestImages.jpeg()
            ])
        #expect(created.status == 201, "\(created.text)")
        #expect(try created.json["vendor_id"] as? Int == 82)
        let market = MarketPeer(port: port)
        let credentials = ["identifier: \(judy.identifier)", "secret: \(judy.secret)"]
        try await waitUntil("the register through the port is in team 82's inspector") {
            let kept = try await market.send("GET", "/inspector/requests", headers: credentials)
            return (try kept.json["requests"] as? [[String: Any]])?.isEmpty == false
        }
        let listed = try await OpenMarketBinary.run(["vendors", "list", "--data-dir", dataDir])
        #expect(
            listed.output.contains(
                "1 team with no port yet, as --team-ports \(teamPort) holds 1 team: start the market with --team-ports "
                    + "\(teamPort)-\(teamPort + 1) to give every team one"), "\(listed.output)")
        #expect(try await server.terminate() == 0)
    }

    /// The teacher rehearses for every team from the shell: a running market follows within a second, and
    /// `faults clear --every-team` ends it.
    @Test func faultsForEveryTeamAreSetShownAndClearedFromTheShell() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let market = MarketPeer(port: try await server.listeningPort())
        #expect(
            try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "team 1"]).status == 0)
        let neither = try await OpenMarketBinary.run(["faults", "set", "--data-dir", dataDir, "--fail", "10%"])
        #expect(neither.status != 0 && neither.errors.contains("--every-team"))
        let set = try await OpenMarketBinary.run([
            "faults", "set", "--every-team", "--data-dir", dataDir, "--fail", "100%", "--status", "502",
        ])
        #expect(set.output.contains("fail:      100% with status 502"), "\(set.output)\(set.errors)")
        try await waitUntil("the running market follows") {
            try await market.send("GET", "/teams/1/api/products?page_no=1").status == 502
        }
        let shown = try await OpenMarketBinary.run(["faults", "show", "--every-team", "--data-dir", dataDir])
        #expect(shown.output.contains("fail:      100% with status 502"))
        let cleared = try await OpenMarketBinary.run(["faults", "clear", "--every-team", "--data-dir", dataDir])
        #expect(cleared.output == "no faults\n")
        try await waitUntil("the rehearsal is off") {
            try await market.send("GET", "/teams/1/api/products?page_no=1").status == 200
        }
        // The console's log shows both, as set from a shell.
        let added = try await OpenMarketBinary.run(["operators", "add", "--data-dir", dataDir, "--name", "teacher"])
        let secret = try #require(added.output.firstMatch(of: /secret:\s+(\S+)/)?.1)
        var teacher = StorefrontVisitor(port: market.port, language: "en")
        _ = try await teacher.get("/operator")
        _ = try await teacher.post("/operator/sign-in", ["name": "teacher", "secret": String(secret)])
        let console = try await teacher.get("/operator").text
        #expect(console.contains("shell ("), "\(console)")
        #expect(console.contains("set a rehearsal for every team"))
        #expect(try await server.terminate() == 0)
    }

    /// One team's hard cases from the shell: an unknown name is refused with every name, the running market answers
    /// that team with them, and the plain address keeps the market.
    @Test func hardCasesAreSetForOneTeamFromTheShell() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let market = MarketPeer(port: try await server.listeningPort())
        let added = try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "team 1"])
        let identifier = String(try #require(added.output.firstMatch(of: /identifier:\s+(\S+)/)?.1))
        let unknown = try await OpenMarketBinary.run([
            "faults", "set", "--identifier", identifier, "--data-dir", dataDir, "--hard-cases", "empty,endless",
        ])
        #expect(unknown.status != 0 && unknown.errors.contains("thousand_pages"), "\(unknown.errors)")
        let set = try await OpenMarketBinary.run([
            "faults", "set", "--identifier", identifier, "--data-dir", dataDir, "--hard-cases", "thousand_pages",
            "--seed", "3",
        ])
        #expect(set.output.contains("hard cases: thousand_pages"), "\(set.output)\(set.errors)")
        try await waitUntil("the running market follows") {
            try await market.send("GET", "/teams/1/api/products?page_no=1&items_per_page=10").text.contains(
                #""last_page":1000"#)
        }
        #expect(
            try await market.send("GET", "/api/products?page_no=1&items_per_page=10").text.contains(#""last_page":0"#))
        #expect(try await server.terminate() == 0)
    }

    @Test func aTeamsOwnPortIsTheTeamsInEveryShapeOfURL() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let judy = TestMarket.judy
        let added = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "judy", "--vendor-id", "1",
            "--identifier", judy.identifier, "--secret", judy.secret, "--team-ports", "9101-9140",
            "--market-address", "http://192.168.0.10:8080",
        ])
        #expect(added.output.contains("own port:   http://192.168.0.10:9101\n"), "\(added.output)")
        let teamPort = try FreePort.pick()
        let server = try OpenMarketBinary.start([
            "serve", "--port", "0", "--data-dir", dataDir, "--team-ports", String(teamPort),
        ])
        let market = MarketPeer(port: try await server.listeningPort())
        #expect(try await market.create("Pictured", by: judy, images: [try TestImages.jpeg()]).status == 201)
        for shape in URLShape.all {
            let url = try #require(shape.build("http://127.0.0.1:\(teamPort)"))
            let answer = try await MarketPeer(port: teamPort).send("GET", url.path + "?" + (url.query ?? ""))
            let thumbnail = (try answer.json["pages"] as? [[String: Any]])?.first?["thumbnail"] as? String
            #expect(thumbnail?.hasPrefix("http://127.0.0.1:\(teamPort)/images/") == true, "\(shape.name)")
        }
        let credentials = ["identifier: \(judy.identifier)", "secret: \(judy.secret)"]
        try await waitUntil("every shape's request is in the team's inspector") {
            let requests = try await market.send("GET", "/inspector/requests", headers: credentials)
            let kept = (try requests.json["requests"] as? [[String: Any]])?.compactMap {
                $0["request"] as? [String: Any]
            }
            return kept?.filter { $0["method"] as? String == "GET" }.count == URLShape.all.count
        }
        let address = try await market.send("GET", "/inspector/team", headers: credentials)
        #expect(try address.json["port_address"] as? String == "http://127.0.0.1:\(teamPort)")
        #expect(try await server.terminate() == 0)
    }

    @Test func vendorsAddExplainsWhatIsWrong() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let bad = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "x", "--identifier", "nope",
        ])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("identifier must be a UUID"))
        let id = UUID().uuidString
        _ = try await OpenMarketBinary.run(["vendors", "add", "--data-dir", dataDir, "--name", "a", "--identifier", id])
        let twice = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "b", "--identifier", id,
        ])
        #expect(twice.status != 0)
        #expect(twice.errors.contains("exists already"))
        let short = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "c", "--secret", "1234567",
        ])
        #expect(short.status != 0)
        #expect(short.errors.contains("secret must be at least 8 characters"))
    }

    @Test func vendorsSecretGivesANewSecretThatAloneWorksFromThenOn() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let id = "a09d8d1a-d1b8-11ec-9676-bd41bb2bb233"
        _ = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "papri", "--identifier", id, "--secret", "old-secret",
        ])
        let replaced = try await OpenMarketBinary.run(["vendors", "secret", "--data-dir", dataDir, id.uppercased()])
        #expect(replaced.status == 0, "\(replaced.errors)")
        let secret = try #require(replaced.output.firstMatch(of: /secret:\s+([a-z0-9]{16})/)?.1)
        let chosen = try await OpenMarketBinary.run([
            "vendors", "secret", "--data-dir", dataDir, id, "--secret", "chosen-by-papri",
        ])
        #expect(chosen.output.contains("secret:     chosen-by-papri"))
        let unknown = try await OpenMarketBinary.run([
            "vendors", "secret", "--data-dir", dataDir, UUID().uuidString,
        ])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("no vendor has the identifier"))

        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let port = try await server.listeningPort()
        for (secret, status) in [("old-secret", 401), (String(secret), 401), ("chosen-by-papri", 303)] {
            var visitor = StorefrontVisitor(port: port)
            _ = try await visitor.get("/sign-in")
            #expect(try await visitor.post("/sign-in", ["identifier": id, "secret": secret]).status == status)
        }
        #expect(try await server.terminate() == 0)
    }

    @Test func serveDemoFillsAnEmptyMarketOnceAndStopsGracefullyOnSIGTERM() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        for run in 1...2 {
            let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", dataDir])
            let port = try await server.listeningPort()
            let list = try await RawHTTP.send(
                wire("GET /api/products?items_per_page=200 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"), port: port)
            let page = try list.json
            #expect(page["total_count"] as? Int == 64, "run \(run)")
            let items = try #require(page["pages"] as? [[String: Any]])
            #expect(Set(items.compactMap { $0["vendor_id"] as? Int }).count == 3)
            let camera = try await RawHTTP.send(
                wire("GET /api/products?search_value=camera HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"), port: port)
            #expect(try camera.json["total_count"] as? Int == 3, "the film cameras, found in English too")
            for item in items.prefix(8) {
                let detail = try await RawHTTP.send(
                    wire("GET /api/products/\(item["id"] as? Int ?? 0) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"),
                    port: port)
                #expect((1...5).contains((try detail.json["images"] as? [Any])?.count ?? 0))
            }
            #expect(try await server.terminate() == 0)
        }
    }
}

@Suite struct StorefrontSessionTests {
    let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("om-session-\(UUID())").path

    @Test func aSignInOutlivesARestartAndNeitherTheLogNorAPageShowsTheSecret() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let papri = TestMarket.papri
        let server = try await OpenMarketBinary.serve(with: papri, in: dataDir)
        var visitor = StorefrontVisitor(port: try await server.listeningPort())
        #expect(try await visitor.signIn().status == 303)
        let form = try await visitor.get("/products/new")
        #expect(form.text.contains("Sell a product"))
        #expect(!form.text.contains(papri.secret))
        #expect(try await server.terminate() == 0)
        #expect(!server.logText.contains(papri.secret))
        #expect(server.logText.contains("POST /sign-in 303"))
        let key = try FileManager.default.attributesOfItem(atPath: dataDir + "/session.key")
        #expect((key[.posixPermissions] as? Int) == 0o600, "only the market's owner may read the key")

        let again = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        var returning = StorefrontVisitor(port: try await again.listeningPort())
        returning.cookies = visitor.cookies
        let stillSignedIn = try await returning.get("/products/new")
        #expect(stillSignedIn.status == 200)
        #expect(stillSignedIn.text.contains("Sell a product"))
        #expect(try await again.terminate() == 0)
    }

    /// Servers given one OPENMARKET_SESSION_KEY open each other's cookies; another key opens none.
    @Test func theSessionKeyInTheEnvironmentSealsTheCookies() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let keys = [0, 1].map { seed in Data((0..<32).map { UInt8($0 + seed) }).base64EncodedString() }
        _ = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "papri", "--identifier", TestMarket.papri.identifier,
            "--secret", TestMarket.papri.secret,
        ])
        func sellForm(_ key: String, _ visitor: inout StorefrontVisitor, signIn: Bool = false) async throws -> Int {
            let server = try OpenMarketBinary.start(
                ["serve", "--port", "0", "--data-dir", dataDir], environment: ["OPENMARKET_SESSION_KEY": key])
            visitor.port = try await server.listeningPort()
            if signIn { #expect(try await visitor.signIn().status == 303) }
            let status = try await visitor.get("/products/new").status
            #expect(try await server.terminate() == 0)
            return status
        }
        var visitor = StorefrontVisitor(port: 0)
        #expect(try await sellForm(keys[0], &visitor, signIn: true) == 200)
        var other = visitor
        #expect(try await sellForm(keys[1], &other) == 303, "a cookie sealed under another key opens nothing")
        #expect(try await sellForm(keys[0], &visitor) == 200)

        let refused = try OpenMarketBinary.start(
            ["serve", "--port", "0", "--data-dir", dataDir], environment: ["OPENMARKET_SESSION_KEY": "short"])
        #expect(await refused.exitStatus() != 0)
        #expect(refused.logText.contains("OPENMARKET_SESSION_KEY must be 32 bytes in base64"))
    }
}

@Suite struct RequestLogTests {
    /// A delete secret in every spelling the apps use, and in addresses that match no route, never
    /// reaches the log.
    @Test func noDeleteSecretReachesTheLogInAnySpelling() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("om-log-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let peer = MarketPeer(port: try await server.listeningPort(), host: "openmarket.example")
        let secret = UUID().uuidString.lowercased()
        let paths = [
            "/api/products/1/\(secret)", "/api/products/\(secret)", "//API/Products/\(secret.uppercased())",
            "/api/products//api/products/\(secret)", "/api/products/1/\(secret)/", "/nothing/here/\(secret)",
            "/api/products/" + String(format: "%%%02X", secret.utf8.first!) + secret.dropFirst(),
        ]
        for path in paths {
            for method in ["DELETE", "GET", "POST", "PUT"] { _ = try await peer.send(method, path) }
        }
        #expect(try await server.terminate() == 0)
        let log = server.logText.lowercased()
        #expect(log.contains("delete /api/products/1/••• "))
        #expect(!log.contains(secret) && !log.contains(secret.dropFirst(2)), "\(log)")
    }
}

@Suite struct LogFormatTests {
    @Test func withLogFormatJSONEveryLogLineIsOneJSONObject() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("om-json-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(
            ["serve", "--port", "0", "--data-dir", dataDir], environment: ["OPENMARKET_LOG_FORMAT": "json"])
        let peer = MarketPeer(port: try await server.listeningPort())
        #expect(try await peer.send("GET", "/healthChecker").status == 200)
        #expect(try await server.terminate() == 0)
        let lines = server.logText.split(separator: "\n")
        let entries = lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
        }
        #expect(entries.count == lines.count && !lines.isEmpty, "\(server.logText)")
        #expect(entries.allSatisfy { $0["time"] != nil && $0["level"] != nil && $0["label"] == "openmarket" })
        #expect(entries.contains { $0["message"]?.hasPrefix("GET /healthChecker 200") == true })
    }
}

extension LogFormatTests {
    /// Lines are written from a queue: none is lost, kept response or not, and the last is written
    /// before the server exits.
    @Test func theTextLogHasEveryRequestAndItsLastLineBeforeTheServerExits() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("om-text-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let peer = MarketPeer(port: try await server.listeningPort())
        for number in 0..<30 {
            let answer = try await peer.send("GET", "/api/products?page_no=1&items_per_page=\(number % 3 + 1)")
            #expect(answer.status == 200)
        }
        #expect(try await server.terminate() == 0)
        let lines = server.logText.split(separator: "\n")
        // One source for every request's line, whoever answered it, and its time in tenths of a millisecond.
        let requests = lines.filter {
            $0.contains(" info openmarket:") && $0.contains(" [MarketHTTP] GET /api/products 200 ")
                && $0.wholeMatch(of: /.* 200 \d+\.\dms/) != nil
        }
        #expect(requests.count == 30, "\(server.logText)")
        #expect(lines.last?.hasSuffix("Open Market is closed") == true, "\(lines.suffix(3))")
    }
}

@Suite struct ShutdownTests {
    let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-stop-\(UUID().uuidString)")
        .path
    let papri = TestMarket.papri

    func upload(_ name: String, port: Int, expectingContinue: Bool = false) throws -> Data {
        let b = UUID().uuidString
        let body = wire(
            "--\(b)\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n",
            #"{"name":"\#(name)","descriptions":"d","price":10,"currency":"KRW","secret":"\#(papri.secret)"}"#, "\r\n",
            "--\(b)\r\nContent-Disposition: form-data; name=\"images\"; filename=\"a.jpg\"\r\n\r\n",
            WirePiece(try TestImages.jpeg()), "\r\n--\(b)--\r\n")
        return wire(
            "POST /api/products HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nidentifier: \(papri.identifier)\r\n",
            "Content-Type: multipart/form-data; boundary=\(b)\r\nContent-Length: \(body.count)\r\n",
            expectingContinue ? "Expect: 100-continue\r\n\r\n" : "\r\n", WirePiece(body)
        )
    }

    @Test func sigtermLetsARequestInFlightFinishAndTheLogKeepsNoDeleteSecret() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        _ = try await OpenMarketBinary.run([
            "vendors", "add", "--data-dir", dataDir, "--name", "papri", "--identifier", papri.identifier,
            "--secret", papri.secret,
        ])
        let server = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let port = try await server.listeningPort()

        let first = try await RawHTTP.send(try upload("Deleted", port: port), port: port)
        let id = try #require(try first.json["id"] as? Int)
        let secretBody = #"{"secret":"\#(papri.secret)"}"#
        let token = try await RawHTTP.send(
            wire(
                "POST /api/products/\(id)/secret HTTP/1.1\r\nHost: x\r\nidentifier: \(papri.identifier)\r\n",
                "Content-Length: \(secretBody.utf8.count)\r\n\r\n\(secretBody)"), port: port
        ).text
        // Nala's app sends the vendor's secret where the delete secret goes.
        let mistaken = try await RawHTTP.send(
            wire(
                "DELETE /api/products/\(id)/\(papri.secret) HTTP/1.1\r\nHost: x\r\nidentifier: \(papri.identifier)\r\n\r\n"
            ),
            port: port)
        #expect(mistaken.status != 200 && !mistaken.text.contains(papri.secret))
        let deleted = try await RawHTTP.send(
            wire("DELETE /api/products/\(id)/\(token) HTTP/1.1\r\nHost: x\r\nidentifier: \(papri.identifier)\r\n\r\n"),
            port: port)
        #expect(deleted.status == 200)

        // The server has begun a request whose body is half on the wire when SIGTERM arrives (its
        // go-ahead says so); the rest follows once the server has begun to shut down.
        let request = try upload("Arrived during shutdown", port: port, expectingContinue: true)
        let head = try #require(request.range(of: Data("\r\n\r\n".utf8))).upperBound
        let connection = try await RawConnection(port: port)
        try await connection.send(request[..<head])
        #expect(try await connection.response().status == 100)
        let body = request[head...]
        try await connection.send(body.prefix(body.count / 2))
        server.signalTerminate()
        _ = try await server.waitForLog(#"(?i)(shut\w* ?down)"#)
        try await connection.send(body.dropFirst(body.count / 2))
        let response = try await connection.response()
        #expect(response.status == 201)
        #expect(await server.exitStatus() == 0)
        #expect(!server.logText.contains(token) && !server.logText.contains(papri.secret))
        #expect(server.logText.contains("DELETE /api/products/\(id)/••• 200"))

        let again = try OpenMarketBinary.start(["serve", "--port", "0", "--data-dir", dataDir])
        let newPort = try await again.listeningPort()
        let list = try await RawHTTP.send(wire("GET /api/products HTTP/1.1\r\nHost: x\r\n\r\n"), port: newPort)
        let names = (try list.json["pages"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Arrived during shutdown"])
        #expect(try await again.terminate() == 0)
    }

    /// A learner follows their app's requests in a terminal: from the market's storage, or from a
    /// running market with their secret; the past ones first, then each as it arrives.
    @Test func inspectFollowsAVendorsRequestsFromStorageOrFromARunningMarket() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", dataDir])
        let port = try await server.listeningPort()
        let market = MarketPeer(port: port)
        let papri = TestMarket.papri
        func ask(_ id: Int) async throws {
            _ = try await market.send("GET", "/api/products/\(id)", headers: ["identifier: \(papri.identifier)"])
        }
        try await ask(777_001)
        let fromStorage = try OpenMarketBinary.start([
            "inspect", "--data-dir", dataDir, "--identifier", papri.identifier,
        ])
        _ = try await fromStorage.waitForLog("(following)")
        try await ask(777_002)
        let seen = try await fromStorage.waitForLog(#"(404  GET /api/products/777002 .*\n +refused: .*)"#)
        #expect(seen.hasSuffix("refused: no product has the id 777002"), "\(seen)")

        let fromMarket = try OpenMarketBinary.start(
            ["inspect", "--url", "http://127.0.0.1:\(port)", "--identifier", papri.identifier],
            environment: ["OPENMARKET_SECRET": papri.secret])
        _ = try await fromMarket.waitForLog("(following)")
        #expect(fromMarket.logText.contains("GET /api/products/777002"), "the past ones first")
        try await ask(777_003)
        _ = try await fromMarket.waitForLog(#"(404  GET /api/products/777003)"#)
        #expect(!fromMarket.logText.contains(papri.secret))

        let wrong = try await OpenMarketBinary.run([
            "inspect", "--url", "http://127.0.0.1:\(port)", "--identifier", papri.identifier, "--secret", "not-it",
        ])
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("the identifier and secret do not match a vendor"), "\(wrong.errors)")
        _ = try await fromStorage.terminate()
        _ = try await fromMarket.terminate()
        #expect(try await server.terminate() == 0)
    }

    /// A teacher makes one learner's answers arrive broken, of the kinds named, from the shell.
    @Test func brokenAnswersSetFromTheCommandLineReachARunningMarket() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", dataDir])
        let market = MarketPeer(port: try await server.listeningPort())
        let papri = TestMarket.papri
        let set = try await OpenMarketBinary.run([
            "faults", "set", "--data-dir", dataDir, "--identifier", papri.identifier, "--broken", "100%",
            "--broken-kinds", "number_as_text",
        ])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains("broken:    100% (number_as_text)"))
        func price() async throws -> Any? {
            try await market.send("GET", "/api/products/1", headers: ["identifier: \(papri.identifier)"]).json["price"]
        }
        var seen = try await price()
        let deadline = ContinuousClock.now + .seconds(5)
        while !(seen is String), ContinuousClock.now < deadline { seen = try await price() }
        #expect(seen is String, "the price came as text")
        let bad = try await OpenMarketBinary.run([
            "faults", "set", "--data-dir", dataDir, "--identifier", papri.identifier, "--broken", "10%",
            "--broken-kinds", "sideways",
        ])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("must be among truncated, missing_key"), "\(bad.errors)")
        #expect(try await server.terminate() == 0)
    }

    /// A teacher switches a learner's faults on from the shell while the market runs; only that
    /// learner's requests fail, from the next second on, and `faults clear` ends it.
    @Test func faultsSetFromTheCommandLineReachARunningMarket() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", dataDir])
        let peer = MarketPeer(port: try await server.listeningPort())
        let papri = TestMarket.papri
        func papriUpdates() async throws -> Int {
            try await peer.patch(1, #"{"stock":3,"secret":"\#(papri.secret)"}"#, by: papri).status
        }
        let set = try await OpenMarketBinary.run([
            "faults", "set", "--data-dir", dataDir, "--identifier", papri.identifier, "--fail", "100%", "--status",
            "500",
            "--latency", "10ms±5ms", "--seed", "7",
        ])
        #expect(set.status == 0, "\(set.errors)")
        #expect(set.output.contains("fail:      100% with status 500"))
        #expect(set.output.contains("latency:   10ms±5ms"))
        var status = try await papriUpdates()
        let deadline = ContinuousClock.now + .seconds(5)
        while status != 500, ContinuousClock.now < deadline { status = try await papriUpdates() }
        #expect(status == 500)
        let judy = try await peer.patch(1, #"{"stock":3,"secret":"\#(TestMarket.judy.secret)"}"#, by: TestMarket.judy)
        #expect(judy.status == 403, "judy is refused as ever (product 1 is not hers), never by papri's faults")
        let bad = try await OpenMarketBinary.run([
            "faults", "set", "--data-dir", dataDir, "--identifier", papri.identifier, "--fail", "much",
        ])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("--fail must be a share such as 10%, not much"))
        let cleared = try await OpenMarketBinary.run([
            "faults", "clear", "--data-dir", dataDir, "--identifier", papri.identifier,
        ])
        #expect(cleared.status == 0)
        let clearedAt = ContinuousClock.now
        while status == 500, ContinuousClock.now - clearedAt < .seconds(5) { status = try await papriUpdates() }
        #expect(status != 500)
        #expect(try await server.terminate() == 0)
    }
}

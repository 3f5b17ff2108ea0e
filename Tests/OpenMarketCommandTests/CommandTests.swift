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

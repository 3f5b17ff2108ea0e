import Foundation
import MarketTestSupport
import Testing

/// `/metrics` and `/readyz` on a running `openmarket serve`, as Prometheus and a load balancer
/// read them.
@Suite struct OperationsTests {
    /// The value of the sample whose line starts with `series`, or nil.
    static func sample(_ series: String, in metrics: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func metricsCountRequestsByRouteTemplateAndTimeImagesAndTheDatabase() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-ops-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let server = try await OpenMarketBinary.serve(with: TestMarket.papri, in: dataDir)
        let peer = MarketPeer(port: try await server.listeningPort())
        let created = try await peer.create("Counted", by: TestMarket.papri, images: [try TestImages.jpeg(dots: 3)])
        let id = try #require(try created.json["id"] as? Int)
        for _ in 0..<2 { #expect(try await peer.send("GET", "/api/products/\(id)").status == 200) }
        #expect(try await peer.send("GET", "/api/products/\(id + 1000)").status == 404)

        let ready = try await peer.send("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(try ready.json["ready"] as? Bool == true)
        #expect(try ready.json["database"] as? String == "ok" && ready.json["images"] as? String == "ok")

        let scraped = try await peer.send("GET", "/metrics")
        #expect(scraped.status == 200)
        #expect(scraped.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let metrics = scraped.text
        let route = #"http_route="/api/products/{id}",http_request_method="GET""#
        #expect(Self.sample(#"hb_requests{\#(route),http_response_status_code="200"}"#, in: metrics) == 2)
        #expect(Self.sample(#"hb_requests{\#(route),http_response_status_code="404"}"#, in: metrics) == 1)
        #expect(
            Self.sample(
                #"hb_requests{http_route="/api/products",http_request_method="POST",http_response_status_code="201"}"#,
                in: metrics) == 1)
        #expect(metrics.contains("# TYPE http_server_request_duration histogram"))
        #expect(Self.sample("openmarket_image_processing_count", in: metrics) == 1)
        #expect((Self.sample(#"openmarket_database_count{operation="read"}"#, in: metrics) ?? 0) >= 3)
        #expect((Self.sample(#"openmarket_database_count{operation="write"}"#, in: metrics) ?? 0) >= 1)
        #expect((Self.sample("openmarket_open_connections", in: metrics) ?? 0) >= 1)
        #expect(Self.sample("openmarket_request_body_bytes_in_flight", in: metrics) == 0)
        #expect(!metrics.contains(TestMarket.papri.secret))

        // A container's health check: the program asks the market serving the folder.
        let healthy = try await OpenMarketBinary.run(["health", "--data-dir", dataDir])
        #expect(healthy.status == 0, "\(healthy.errors)")
        #expect(healthy.output.contains(": 200 {") && healthy.output.contains(#""ready":true"#), "\(healthy.output)")
        #expect(try await server.terminate() == 0)
        let gone = try await OpenMarketBinary.run(["health", "--server", "http://127.0.0.1:\(peer.port)"])
        #expect(gone.status == 1)
        #expect(gone.errors.contains("no market answers at http://127.0.0.1:\(peer.port)"), "\(gone.errors)")
    }

    /// An app sends the same right secret with every edit: bcrypt checks it once, memory recognises it after that,
    /// and `/metrics` counts which did. A wrong secret costs a full check every time.
    @Test func aRightSecretIsCheckedAgainstBcryptOnceAndAWrongOneEveryTime() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-ops-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let papri = TestMarket.papri
        let server = try await OpenMarketBinary.serve(with: papri, in: dataDir)
        let peer = MarketPeer(port: try await server.listeningPort())
        func checks() async throws -> (bcrypt: Double, memory: Double) {
            let metrics = try await peer.send("GET", "/metrics").text
            return (
                Self.sample(#"openmarket_secret_checks{by="bcrypt"}"#, in: metrics) ?? 0,
                Self.sample(#"openmarket_secret_checks{by="memory"}"#, in: metrics) ?? 0
            )
        }
        let created = try await peer.create("Edited often", by: papri, images: [try TestImages.jpeg()])
        let id = try #require(try created.json["id"] as? Int)
        let before = try await checks()
        for stock in 1...3 {
            #expect(
                try await peer.patch(id, #"{"stock":\#(stock),"secret":"\#(papri.secret)"}"#, by: papri).status == 202)
        }
        let right = try await checks()
        #expect(right.bcrypt - before.bcrypt == 0, "the secret that registered the product was checked already")
        #expect(right.memory - before.memory == 3)
        for guess in 1...3 {
            #expect(try await peer.patch(id, #"{"stock":1,"secret":"guess-\#(guess)"}"#, by: papri).status == 401)
        }
        let wrong = try await checks()
        #expect(wrong.bcrypt - right.bcrypt == 3 && wrong.memory == right.memory)
        #expect(try await server.terminate() == 0)
    }
}

import Foundation
import MarketApp
import MarketTestSupport
import Testing

/// `/openapi.json` names every route of the API with exactly the methods the router takes, so the
/// document cannot fall behind the code; schemathesis (`fuzz/run`) checks the answers against it.
@Suite struct OpenAPIDocumentTests {
    /// The storefront's pages, which browsers visit and the document leaves out: addresses under
    /// these prefixes, and these whole addresses.
    static let storefrontPrefixes = ["/products", "/sign-in", "/sign-out", "/assets", "/operator"]
    static let storefrontPaths: Set = [
        "/", "/suggestions", "/inspector", "/inspector/live", "/inspector/rehearsal", "/inspector/products/delete",
    ]

    /// `{anything}` becomes `{}`, so that the document and the router may name parameters differently.
    static func shape(_ path: String) -> String {
        "/"
            + path.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "{}" : $0.lowercased() }
            .joined(separator: "/")
    }

    @Test func theDocumentNamesEveryRouteOfTheAPIWithItsMethods() async throws {
        try await TestMarket.inProcess { market in
            let served = try await market.send("GET", "/openapi.json")
            #expect(served.status == 200)
            #expect(served.header("Content-Type")?.hasPrefix("application/json") == true)
            let document = try served.json
            #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let documented = Set(
                paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(Self.shape(path))" } })

            let router = try market.market.router()
            let routed = Set(
                router.routes.map { "\($0.method) \(Self.shape($0.path.description))" }.filter { route in
                    let path = String(route.split(separator: " ")[1])
                    return !Self.storefrontPaths.contains(path)
                        && !Self.storefrontPrefixes.contains { path.hasPrefix($0) }
                })
            #expect(
                routed == documented,
                "only routed: \(routed.subtracting(documented)); only documented: \(documented.subtracting(routed))")
        }
    }
}

import Foundation
import MarketTestSupport
import Testing

/// Each way real apps build their URLs (`URLShape`), given a team address as its base and nothing
/// else changed: which of them reach the team. docs/learners.md tells learners which address to
/// use from this; a team's own port reaches it in every shape (`CommandTests`).
@Suite struct TeamAddressShapesTests {
    /// The shapes a path-prefixed team address survives: those that keep the base's path.
    static let keepTheBasesPath: Set<String> = Set(URLShape.all.prefix(4).map(\.name))

    @Test(arguments: URLShape.all)
    func aTeamAddressReachesTheTeamWhenTheAppKeepsTheBasesPath(shape: URLShape) async throws {
        try await TestMarket.inProcess { market in
            let nala = try #require(try await market.service.vendor(.identifier(TestMarket.nala.identifier)))
            let url = try #require(shape.build("http://localhost/teams/\(nala.id)"))
            let target = url.path + (url.query.map { "?" + $0 } ?? "")
            #expect(try await market.send("GET", target).status == 200)
            let reached = url.path.hasPrefix("/teams/\(nala.id)/")
            #expect(reached == Self.keepTheBasesPath.contains(shape.name), "\(url)")
            if reached {
                let requests = try await InspectorTests.requests(market, of: TestMarket.nala, atLeast: 1)
                #expect((requests.first?["request"] as? [String: Any])?["path"] as? String == target)
            }
        }
    }
}

import Foundation
import MarketTestSupport
import Testing

/// Two `openmarket serve` processes on one PostgreSQL database behind Debian's nginx, with the
/// market's shipped nginx configuration: every app flow works through either, and killing one
/// loses nothing.
@Suite(.serialized) struct SeveralServersTests {
    static let papri = TestMarket.papri
    static let judy = TestMarket.judy

    @Test func aProductMadeThroughOneServerIsListedShownServedEditedAndDeletedThroughTheOther() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            let created = try await a.create("Made on A", by: Self.papri, images: [try TestImages.jpeg(dots: 2)])
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(try created.json["id"] as? Int)

            let listed = try await b.send("GET", "/api/products?page_no=1&items_per_page=10")
            #expect((try listed.json["pages"] as? [[String: Any]])?.first?["id"] as? Int == id)
            let shown = try await b.send("GET", "/api/products/\(id)")
            #expect(try shown.json["name"] as? String == "Made on A")
            let image = try #require((try shown.json["images"] as? [[String: Any]])?.first?["url"] as? String)
            let path = try #require(URL(string: image)?.path)
            let fromA = try await a.send("GET", path)
            let fromB = try await b.send("GET", path)
            #expect(fromB.status == 200 && fromB.body == fromA.body && !fromB.body.isEmpty)
            #expect(try await group.front.send("GET", path).body == fromA.body)

            let patched = try await b.patch(id, #"{"price":2500,"secret":"\#(Self.papri.secret)"}"#, by: Self.papri)
            #expect(patched.status == 202)
            #expect(try await a.send("GET", "/api/products/\(id)").json["price"] as? Int == 2500, "read-your-writes")
            for peer in [a, b] {
                let refused = try await peer.patch(id, #"{"price":1,"secret":"\#(Self.judy.secret)"}"#, by: Self.judy)
                #expect(refused.status == 403, "another vendor is refused on every server")
            }
            #expect(try await b.delete(id, by: Self.papri).status == 200)
            #expect(try await a.send("GET", "/api/products/\(id)").status == 404)
        }
    }

    @Test func whatOneServerKeptIsNeverGivenAfterAChangeThroughTheOther() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            let made = try await a.create("Kept on B", by: Self.papri, images: [try TestImages.jpeg(dots: 2)])
            let id = try #require(try made.json["id"] as? Int)
            let reads = [
                "/api/products?page_no=1&items_per_page=10", "/api/products/\(id)", "/items/1", "/item/\(id)", "/",
                "/products/\(id)",
            ]
            var tags: [String: String] = [:]
            for path in reads {
                _ = try await b.send("GET", path)
                let kept = try await b.send("GET", path)
                #expect(kept.status == 200 && kept.text.contains("Kept on B"), "\(path)")
                tags[path] = kept.header("ETag")
                let unchanged = try await b.send("GET", path, headers: ["If-None-Match: \(tags[path] ?? "")"])
                #expect(unchanged.status == 304, "\(path)")
            }

            let added = try await a.create("Added on A", by: Self.papri, images: [try TestImages.jpeg(dots: 3)])
            let addedID = try #require(try added.json["id"] as? Int)
            for path in ["/api/products?page_no=1&items_per_page=10", "/items/1", "/"] {
                #expect(try await b.send("GET", path).text.contains("Added on A"), "\(path) right after the create")
            }
            #expect(
                try await a.patch(id, #"{"name":"Edited on A","secret":"\#(Self.papri.secret)"}"#, by: Self.papri)
                    .status == 202)
            for path in reads {
                let read = try await b.send("GET", path, headers: ["If-None-Match: \(tags[path] ?? "")"])
                #expect(read.status == 200, "\(path): the old tag no longer matches")
                #expect(
                    read.text.contains("Edited on A") && !read.text.contains("Kept on B"),
                    "\(path) right after the edit")
            }
            #expect(try await a.delete(addedID, by: Self.papri).status == 200)
            #expect(try await b.send("GET", "/api/products/\(addedID)").status == 404)
            #expect(try await b.send("GET", "/products/\(addedID)").status == 404)
            #expect(!(try await b.send("GET", "/").text.contains("Added on A")), "right after the delete")
        }
    }

    /// deploy/nginx keeps pictures in its own cache: once asked for through nginx, a picture is
    /// served with the headers a server gives it (304 to a client that holds it), even with every
    /// server stopped.
    @Test func nginxKeepsPicturesAndServesThemWithTheSameHeaders() async throws {
        try await ServerGroup.run { group in
            let created = try await group.peers[0].create(
                "Kept by nginx", by: Self.papri, images: [try TestImages.jpeg(dots: 3)])
            let shown = try await group.peers[0].send("GET", "/api/products/\(try #require(created.json["id"]))")
            let image = try #require((try shown.json["images"] as? [[String: Any]])?.first?["url"] as? String)
            let path = try #require(URL(string: image)?.path)
            let direct = try await group.peers[1].send("GET", path)
            _ = try await group.front.send("GET", path)
            for server in group.servers { _ = try await server.terminate() }

            let kept = try await group.front.send("GET", path)
            #expect(kept.status == 200 && kept.body == direct.body)
            for name in ["Content-Type", "Content-Length", "ETag", "Cache-Control", "X-Content-Type-Options"] {
                #expect(kept.header(name) != nil && kept.header(name) == direct.header(name), "\(name)")
            }
            let held = try await group.front.send(
                "GET", path, headers: ["If-None-Match: \(direct.header("ETag") ?? "")"])
            #expect(held.status == 304 && held.body.isEmpty)
            #expect(try await group.front.send("GET", "/api/products?page_no=1&items_per_page=1").status == 502)
        }
    }

    /// A team address works through nginx on every server: its pictures keep it, nginx's picture
    /// cache never answers for it (so a team's rehearsed failures reach its pictures), and its
    /// requests are the team's whichever server answered them.
    @Test func aTeamAddressBehindNginxIsTheTeamsOnEveryServer() async throws {
        try await ServerGroup.run { group in
            _ = try await group.peers[0].create(
                "Seen by a team", by: Self.papri, images: [try TestImages.jpeg(dots: 4)])
            let credentials = ["identifier: \(Self.papri.identifier)", "secret: \(Self.papri.secret)"]
            let address = try #require(
                try await group.front.send("GET", "/inspector/team", headers: credentials).json["address"] as? String)
            let team = try #require(URL(string: address))
            #expect(team.port == group.balancer.port, "built from the host the request named")
            let list = try await group.front.send("GET", "\(team.path)/api/products?page_no=1&items_per_page=1")
            let thumbnail = try #require((try list.json["pages"] as? [[String: Any]])?.first?["thumbnail"] as? String)
            #expect(thumbnail.hasPrefix(address + "/images/"))
            let picture = try #require(URL(string: thumbnail)?.path)
            #expect(try await group.front.send("GET", picture).status == 200)

            let faults = try await group.front.send(
                "PUT", "/inspector/faults", headers: credentials, body: Data(#"{"fail_percent":100}"#.utf8))
            #expect(faults.status == 200)
            // Each server reads the faults set through another within `FaultInjector.freshness`.
            for peer in group.peers {
                try await waitUntil("every server fails the team's pictures") {
                    try await peer.send("GET", picture).status == 503
                }
            }
            for _ in group.peers {
                #expect(try await group.front.send("GET", picture).status == 503, "never from nginx's cache")
            }
            #expect(try await group.front.send("GET", String(picture.dropFirst(team.path.count))).status == 200)
            try await waitUntil("the team's inspector keeps its picture requests, answered and failed") {
                let requests = try await group.front.send("GET", "/inspector/requests", headers: credentials)
                let statuses = (try requests.json["requests"] as? [[String: Any]])?.compactMap {
                    $0["request"] as? [String: Any]
                }.filter { $0["path"] as? String == picture }.compactMap { $0["status"] as? Int }
                return statuses?.contains(200) == true && statuses?.filter { $0 == 503 }.count ?? 0 >= 4
            }
        }
    }

    /// On PostgreSQL details and pages asked by a client that names no vendor are the same head and
    /// bytes as for one that does, never stale after a change through the other server, and in
    /// order when requests come together.
    @Test func readsOnPostgreSQLAreTheSameForEveryClientAndNeverStale() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            var ids: [Int] = []
            for number in 1...4 {
                let made = try await a.create(
                    "Chair \(number)", by: Self.papri, images: [try TestImages.jpeg(dots: number)])
                ids.append(try #require(try made.json["id"] as? Int))
            }
            let reads =
                ids.map { "/api/products/\($0)" } + ids.map { "/item/\($0)" } + ids.map { "/products/\($0)" }
                + (1...4).map { "/api/products?page_no=\($0)&items_per_page=1" }
            for path in reads {
                let given = try await b.send("GET", path, headers: [Self.visitor])
                let named = try await b.send(
                    "GET", path, headers: [Self.visitor, "identifier: \(Self.judy.identifier)"])
                #expect(given.status == 200 && given.body == named.body, "\(path)")
                #expect(Self.lines(given) == Self.lines(named), "\(path)")
            }

            let renamed = #"{"name":"Renamed on A","secret":"\#(Self.papri.secret)"}"#
            #expect(try await a.patch(ids[2], renamed, by: Self.papri).status == 202)
            for path in ["/api/products/\(ids[2])", "/item/\(ids[2])", "/products/\(ids[2])"] {
                #expect(try await b.send("GET", path, headers: [Self.visitor]).text.contains("Renamed on A"), "\(path)")
            }
            #expect(try await a.delete(ids[3], by: Self.papri).status == 200)
            #expect(try await b.send("GET", "/api/products/\(ids[3])").status == 404)
            #expect(try await b.send("GET", "/products/\(ids[3])", headers: [Self.visitor]).status == 404)

            let paths = [ids[0], ids[1], ids[2], ids[1]].map { "/api/products/\($0)" }
            var expected: [String: Data] = [:]
            for path in paths { expected[path] = try await b.send("GET", path).body }
            _ = try await a.create("Changes the version", by: Self.papri, images: [try TestImages.jpeg(dots: 5)])
            let connection = try await RawConnection(port: b.port)
            try await connection.send(
                Data(paths.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1:\(b.port)\r\n\r\n" }.joined().utf8))
            for (path, answer) in zip(paths, try await connection.responses(paths.count)) {
                #expect(answer.status == 200 && answer.body == expected[path], "\(path)")
            }
        }
    }

    /// Each server learns the catalogue's changes on a connection of its own; when those are cut,
    /// a change through one server is still shown at once by the other, and both watch again by
    /// themselves.
    @Test func serversWhoseWatchesAreCutGiveNothingStaleAndWatchAgain() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            let id = try await Self.watchedProduct(in: group)
            for round in 1...2 {
                try await Self.keep(id, on: b, price: round == 1 ? 1000 : 1001)
                let cut =
                    "SELECT count(pg_terminate_backend(pid)) FROM (\(Self.watches.replacing("count(*)", with: "pid"))) w"
                #expect(try await TestStorage.count(group.database, cut) == 2, "round \(round)")
                let price = 1000 + round
                let patched = #"{"price":\#(price),"secret":"\#(Self.papri.secret)"}"#
                #expect(try await a.patch(id, patched, by: Self.papri).status == 202)
                #expect(
                    try await b.send("GET", "/api/products/\(id)").json["price"] as? Int == price,
                    "round \(round), right after")
                try await waitUntil("both watch again") {
                    try await TestStorage.count(group.database, Self.watches) == 2
                }
            }
        }
    }

    /// A server that has not heard of a change (its watch's connection is stuck behind a lock) is
    /// waited for: the change's response comes once that server's lease has run out, and by then
    /// it asks the database rather than give what it kept.
    @Test func aChangeIsAnsweredOnlyOnceEveryServerHasHeardOfItOrStoppedTrustingWhatItHolds() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            let id = try await Self.watchedProduct(in: group)
            let path = "/api/products/\(id)"
            try await Self.keep(id, on: b, price: 1000)

            try await TestStorage.holding(group.database, "SELECT FROM catalogue_watcher FOR UPDATE") {
                try await waitUntil("both watches wait for the lock") {
                    try await TestStorage.count(group.database, Self.watches + " AND wait_event_type = 'Lock'") == 2
                }
                let patched = #"{"price":3100,"secret":"\#(Self.papri.secret)"}"#
                #expect(try await a.patch(id, patched, by: Self.papri).status == 202)
                #expect(try await b.send("GET", path).json["price"] as? Int == 3100, "right after the change")
            }
            #expect(try await b.send("GET", path).json["price"] as? Int == 3100, "once the watches hear again")
        }
    }

    static let watches = """
        SELECT count(*) FROM pg_stat_activity
        WHERE application_name = 'openmarket catalogue watch' AND datname = current_database()
        """

    /// A product made through the first server, once both servers watch the catalogue.
    static func watchedProduct(in group: ServerGroup) async throws -> Int {
        let made = try await group.peers[0].create("Watched", by: papri, images: [try TestImages.jpeg(dots: 2)])
        let id = try #require(try made.json["id"] as? Int)
        try await waitUntil("a watch for each server") { try await TestStorage.count(group.database, watches) == 2 }
        return id
    }

    /// Reads the product twice through `peer`, which keeps it.
    static func keep(_ id: Int, on peer: MarketPeer, price: Int) async throws {
        _ = try await peer.send("GET", "/api/products/\(id)")
        #expect(try await peer.send("GET", "/api/products/\(id)").json["price"] as? Int == price, "kept")
    }

    static let visitor = "Cookie: market_form_token=" + String(repeating: "b", count: 64)

    /// A head's lines but its date.
    static func lines(_ response: RawResponse) -> [String] {
        response.headers.map { "\($0.name.lowercased()): \($0.value)" }.filter { !$0.hasPrefix("date:") }
    }

    /// On PostgreSQL a server that has not heard from the database lately (here its watch is stuck
    /// behind a lock until its lease ran out) asks for the catalogue's version before it gives a
    /// kept response; requests sent together, and a head in pieces, are still answered in order.
    @Test func requestsSentTogetherAreAnsweredInOrderWhileTheVersionIsAskedFor() async throws {
        try await ServerGroup.run { group in
            let a = group.peers[0]
            let made = try await a.create("Waited for", by: Self.papri, images: [try TestImages.jpeg(dots: 2)])
            let id = try #require(try made.json["id"] as? Int)
            let (list, detail, missing) = (
                "/api/products?page_no=1&items_per_page=10", "/api/products/\(id)", "/api/products/99999"
            )
            var expected: [String: RawResponse] = [:]
            for path in [list, detail, missing, "/healthChecker"] {
                _ = try await a.send("GET", path)
                expected[path] = try await a.send("GET", path)
            }
            let paths = [list, detail, "/healthChecker", list, missing, detail, list]
            let head = { (path: String) in "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(a.port)\r\n\r\n" }
            try await TestStorage.holding(group.database, "SELECT FROM catalogue_watcher FOR UPDATE") {
                try await waitUntil("every lease ran out") {
                    try await TestStorage.count(
                        group.database, "SELECT count(*) FROM catalogue_watcher WHERE lease_until > now()") == 0
                }
                let connection = try await RawConnection(port: a.port)
                try await connection.send(Data(paths.map(head).joined().utf8))
                for (path, answer) in zip(paths, try await connection.responses(paths.count)) {
                    #expect(answer.status == expected[path]?.status && answer.body == expected[path]?.body, "\(path)")
                }
                let pieces = head(list)
                try await connection.send(Data(pieces.prefix(20).utf8))
                try await connection.send(Data(pieces.dropFirst(20).utf8))
                #expect(try await connection.response().body == expected[list]?.body)
            }
        }
    }

    /// A live inspector opened through nginx, on whichever server nginx chose, shows requests that
    /// either server answered, each as it arrives rather than when nginx's buffers fill.
    @Test func aLiveInspectorBehindNginxFollowsRequestsThatEitherServerAnswered() async throws {
        try await ServerGroup.run { group in
            let live = try await RawConnection(port: group.balancer.port)
            try await live.send(
                wire(
                    "GET /inspector/requests/live HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                    "identifier: \(Self.papri.identifier)\r\nsecret: \(Self.papri.secret)\r\n\r\n"))
            #expect(try await live.read(until: "retry: 2000").hasPrefix("HTTP/1.1 200"))
            for (index, peer) in group.peers.enumerated() {
                let path = "/api/products/\(index + 1)0\(index + 1)0\(index + 1)"
                _ = try await peer.send("GET", path, headers: ["identifier: \(Self.papri.identifier)"])
                #expect(try await live.read(until: path).contains(#""path":"\#(path)""#))
            }
        }
    }

    @Test func aStorefrontSignInOnOneServerHoldsOnTheOther() async throws {
        try await ServerGroup.run { group in
            var visitor = StorefrontVisitor(port: group.ports[0])
            #expect(try await visitor.signIn().status == 303)
            visitor.port = group.ports[1]
            let form = try await visitor.get("/products/new")
            #expect(form.status == 200)
            #expect(form.text.contains("Sign out"))
        }
    }

    @Test func aSignOutOnOneServerEndsTheSessionOnTheOther() async throws {
        try await ServerGroup.run { group in
            var visitor = StorefrontVisitor(port: group.ports[0])
            #expect(try await visitor.signIn().status == 303)
            var replay = visitor
            replay.port = group.ports[1]
            #expect(try await visitor.post("/sign-out", [:]).status == 303)
            let form = try await replay.get("/products/new")
            #expect(form.status == 303)
            #expect(form.header("Location") == "/sign-in?next=/products/new")
        }
    }

    @Test func wrongSecretsCountedOnOneServerAreThrottledOnTheOther() async throws {
        try await ServerGroup.run { group in
            let (a, b) = (group.peers[0], group.peers[1])
            let created = try await a.create("Guarded", by: Self.papri, images: [try TestImages.jpeg(dots: 2)])
            let id = try #require(try created.json["id"] as? Int)
            for guess in 1...5 {
                #expect(try await a.patch(id, #"{"stock":1,"secret":"guess-\#(guess)"}"#, by: Self.papri).status == 401)
            }
            let throttled = try await b.patch(id, #"{"stock":1,"secret":"\#(Self.papri.secret)"}"#, by: Self.papri)
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After") != nil)
        }
    }

    @Test func killingOneServerDuringCreatesLosesNoCreateThatWasAnswered() async throws {
        try await ServerGroup.run { group in
            let picture = try TestImages.jpeg(dots: 1)
            let (answers, answered) = AsyncStream<Int>.makeStream()
            let created = try await withThrowingTaskGroup(of: [Int: String].self) { tasks in
                for client in 0..<20 {
                    tasks.addTask {
                        var mine: [Int: String] = [:]
                        for round in 0..<4 {
                            let name = "client \(client) round \(round)"
                            let response: RawResponse
                            do {
                                response = try await group.front.create(name, by: Self.papri, images: [picture])
                            } catch is RawHTTPError {
                                // The kill cut this answer off after nginx had begun to pass it on:
                                // the client saw its connection close, not an answer.
                                continue
                            }
                            answered.yield(response.status)
                            if response.status == 201, let id = try response.json["id"] as? Int { mine[id] = name }
                        }
                        return mine
                    }
                }
                tasks.addTask {
                    var successes = 0
                    for await status in answers where status == 201 {
                        successes += 1
                        if successes == 15 { break }
                    }
                    #expect(await group.servers[0].kill() == SIGKILL)
                    return [:]
                }
                var all: [Int: String] = [:]
                for try await mine in tasks { all.merge(mine) { $1 } }
                return all
            }
            answered.finish()
            #expect(created.count >= 60, "the survivor keeps taking creates through nginx (\(created.count) of 80)")
            #expect(try await group.front.send("GET", "/healthChecker").status == 200)
            try await group.restart(0)
            for peer in group.peers {
                for (id, name) in created {
                    let shown = try await peer.send("GET", "/api/products/\(id)")
                    #expect(shown.status == 200 && (try? shown.json["name"] as? String) == name, "product \(id)")
                }
            }
        }
    }

    @Test func serversStartingTogetherOnAnEmptyDatabaseMigrateItOnce() async throws {
        let database = try await TestStorage.createDatabase()
        let servers = try (0..<3).map { _ in
            try OpenMarketBinary.start(["serve", "--port", "0", "--database", database])
        }
        for server in servers {
            let peer = MarketPeer(port: try await server.listeningPort())
            let page = try await peer.send("GET", "/api/products?page_no=1&items_per_page=1")
            #expect(try page.json["total_count"] as? Int == 0)
        }
        let logs = servers.map(\.logText).joined()
        #expect(logs.matches(of: /applying database migration 1:/).count == 1)
        for server in servers { #expect(try await server.terminate() == 0) }
        try await TestStorage.dropDatabase(database)
    }
}

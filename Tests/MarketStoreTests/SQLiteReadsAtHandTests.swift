import Foundation
import GRDB
import MarketCore
import MarketModel
import Testing

@testable import MarketSQLite

/// SQLite's short reads and the catalogue version are read on the caller's thread, through
/// connections of the store's own; they must see every committed change, whoever made it, and
/// never leave a reader waiting for ever.
@Suite struct SQLiteReadsAtHandTests {
    /// Two stores on one new file, as two servers or a server and a tool would have it.
    static func withTwoStores(_ body: (SQLiteMarketStore, SQLiteMarketStore) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-test-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("market.sqlite").path
        try await body(try SQLiteMarketStore(path: path), try SQLiteMarketStore(path: path))
    }

    @Test func theVersionAtHandIsTheCommittedOneWhoeverCommittedIt() async throws {
        try await Self.withTwoStores { server, tool in
            let start = try #require(server.catalogueVersionAtHand())
            #expect(try await server.catalogueVersion() == start)

            let vendor = try await StoreContractTests.vendor(server)
            let product = try await StoreContractTests.product(server, vendor: vendor, name: "Lamp")
            let afterCreate = try #require(server.catalogueVersionAtHand())
            #expect(afterCreate > start)
            #expect(try await server.catalogueVersion() == afterCreate)

            // The other store hides it: this one's version and reads show that at once.
            #expect(try await tool.setProductHidden(true, id: product.id) == "Lamp")
            let afterHide = try #require(server.catalogueVersionAtHand())
            #expect(afterHide > afterCreate)
            #expect(try await server.product(id: product.id) == nil)
            #expect(try await server.products(PageRequest(number: 1, itemsPerPage: 20), matching: nil).totalCount == 0)
            #expect(tool.catalogueVersionAtHand() == afterHide)
        }
    }

    /// The version at hand is read again only when the wal-index header changed: every commit, by
    /// any connection, changes it, and the version then read is the committed one.
    @Test func everyCommitIsSeenThoughTheVersionIsReadOnlyWhenTheHeaderChanged() async throws {
        try await Self.withTwoStores { server, _ in
            let header = try #require(WALIndexHeader(databasePath: server.pool.path))
            let before = try #require(header.read())
            #expect(header.read() == before, "nothing committed, the same header")
            let start = try #require(server.catalogueVersionAtHand())

            // Another connection to the file, as a tool in another process would open it.
            let tool = try DatabaseQueue(path: server.pool.path)
            for step in Int64(1)...20 {
                try await tool.write { db in try db.execute(sql: "UPDATE catalogueVersion SET version = version + 1") }
                #expect(header.read() != before)
                #expect(server.catalogueVersionAtHand() == start + step)
                #expect(server.catalogueVersionAtHand() == start + step, "read again, unchanged")
            }
            // A commit that leaves the catalogue as it is changes the header, not the version.
            try await tool.write { db in try db.execute(sql: "CREATE TABLE unrelated (id INTEGER)") }
            #expect(server.catalogueVersionAtHand() == start + 20)
            _ = try await tool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            #expect(server.catalogueVersionAtHand() == start + 20)
        }
    }

    @Test func aDatabaseWithoutAWALIndexHasNoHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-test-\(UUID()).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try DatabaseQueue(path: path)
        #expect(WALIndexHeader(databasePath: path) == nil)
    }

    /// Searches read through the pool, which hands its readers back only when a task thread
    /// resumes; lists, products and sessions read at hand, on task threads. Hundreds of each at
    /// once must all be answered, and rightly. The limit is there for a hang: alone the test takes
    /// a fifth of a second, but in the whole suite on two cores its 400 tasks wait behind every
    /// other test's, and it took 75–81 s there.
    @Test(.timeLimit(.minutes(5))) func hundredsOfReadsAtOnceAllAnswer() async throws {
        try await Self.withTwoStores { store, _ in
            let vendor = try await StoreContractTests.vendor(store)
            var products: [Product] = []
            for number in 1...30 {
                products.append(try await StoreContractTests.product(store, vendor: vendor, name: "Cup \(number)"))
            }
            let later = StoreContractTests.now.addingTimeInterval(3600)
            try await store.insertSession(
                tokenHash: "token", vendorID: vendor.id, expiresAt: later, now: StoreContractTests.now)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                for round in 0..<100 {
                    let product = products[round % products.count]
                    group.addTask { try await store.product(id: product.id) == product }
                    group.addTask {
                        try await store.products(PageRequest(number: 2, itemsPerPage: 10), matching: "cup").items
                            .count == 10
                    }
                    group.addTask {
                        try await store.products(PageRequest(number: 1, itemsPerPage: 5), matching: nil).totalCount
                            == 30
                    }
                    group.addTask {
                        try await store.vendor(forSession: "token", at: StoreContractTests.now)?.id == vendor.id
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(answered.count == 400)
            #expect(answered.allSatisfy { $0 })
        }
    }

    @Test func readersAtHandAreBoundedAndReused() async throws {
        try await Self.withTwoStores { store, _ in
            let readers = ReadersAtHand(path: store.pool.path, limit: 1)
            let reader = try #require(readers.take())
            #expect(readers.take() == nil, "the only one is taken")
            readers.giveBack(reader)
            let again = try #require(readers.take())
            #expect(again === reader, "given back, it is used again rather than another opened")
            let version = try ReadersAtHand.read(again) { db in
                try Int64.fetchOne(db, sql: "SELECT version FROM catalogueVersion")
            }
            #expect(version == store.catalogueVersionAtHand())
        }
    }
}

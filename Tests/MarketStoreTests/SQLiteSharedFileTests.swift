import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

@testable import MarketSQLite

/// One SQLite file, one connection pool per process: every read sees every committed change,
/// whichever process made it; the catalogue's version sees a store's own at once and another's
/// soon after; many reads at once all answer.
@Suite struct SQLiteSharedFileTests {
    /// Two stores on one new file, as two servers or a server and a tool would have it.
    static func withTwoStores(_ body: (SQLiteMarketStore, SQLiteMarketStore) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-test-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("market.sqlite").path
        try await body(try SQLiteMarketStore(path: path), try SQLiteMarketStore(path: path))
    }

    @Test func theVersionIsTheCommittedOneWhoeverCommittedIt() async throws {
        try await Self.withTwoStores { server, tool in
            let start = try await server.catalogueVersion()
            let vendor = try await StoreContractTests.vendor(server)
            let product = try await StoreContractTests.product(server, vendor: vendor, name: "Lamp")
            let afterCreate = try await server.catalogueVersion()
            #expect(afterCreate > start)
            #expect(try await tool.catalogueVersion() == afterCreate)

            // The other store hides it: this one's reads show that at once, and its version soon.
            #expect(try await tool.setProductHidden(true, id: product.id) == "Lamp")
            let afterHide = try await tool.catalogueVersion()
            #expect(afterHide > afterCreate)
            #expect(try await server.product(id: product.id, includingHidden: false) == nil)
            #expect(try await server.products(PageRequest(number: 1, itemsPerPage: 20), matching: nil).totalCount == 0)
            try await waitUntil("the server's version is the one the other store committed", limit: .seconds(10)) {
                try await server.catalogueVersion() == afterHide
            }
        }
    }

    /// Hundreds of searches, lists, products and sessions at once through the one pool must all be
    /// answered, and rightly. The limit is there for a hang, with room for a suite's worth of tests
    /// running beside it on two cores.
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
                    group.addTask { try await store.product(id: product.id, includingHidden: false) == product }
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
}

import Foundation
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// Sessions and failed attempts, which every server sharing a store must see alike.
@Suite struct SessionStoreTests {
    static let now = StoreContractTests.now

    @Test(arguments: StoreKind.allCases)
    func aSessionHoldsUntilItIsDeletedExpiresOrItsVendorGetsANewSecret(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let vendor = try await StoreContractTests.vendor(store, "seller")
            let later = Self.now.addingTimeInterval(3600)
            for token in ["a", "b", "c"] {
                try await store.insertSession(tokenHash: token, vendorID: vendor.id, expiresAt: later, now: Self.now)
            }
            #expect(try await store.vendor(forSession: "a", at: Self.now)?.identifier == vendor.identifier)
            #expect(try await store.vendor(forSession: "a", at: later) == nil, "expired")
            #expect(try await store.vendor(forSession: "unknown", at: Self.now) == nil)
            try await store.deleteSession(tokenHash: "a")
            #expect(try await store.vendor(forSession: "a", at: Self.now) == nil)
            #expect(try await store.vendor(forSession: "b", at: Self.now) != nil)

            #expect(try await store.replaceSecret(ofVendor: vendor.identifier, with: "new-hash"))
            #expect(try await store.vendorCredentials(identifier: vendor.identifier)?.secretHash == "new-hash")
            #expect(try await store.vendor(forSession: "b", at: Self.now) == nil)
            #expect(try await store.vendor(forSession: "c", at: Self.now) == nil)
            #expect(try await !store.replaceSecret(ofVendor: UUID().uuidString.lowercased(), with: "x"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func failedAttemptsAreCountedPerKeyForgottenWhenOldAndCleared(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let hourAgo = Self.now.addingTimeInterval(-3600)
            for second in 0..<3 {
                try await store.recordFailedAttempt(
                    under: ["vendor:x", "client:1"], at: Self.now.addingTimeInterval(Double(second)), since: hourAgo)
            }
            try await store.recordFailedAttempt(under: ["client:1"], at: Self.now.addingTimeInterval(3), since: hourAgo)
            let counted = try await store.failedAttempts(under: ["vendor:x", "client:1", "vendor:y"], since: hourAgo)
            #expect(
                Set(counted.map { "\($0.key)=\($0.count)" }) == ["vendor:x=3", "client:1=4"])
            #expect(counted.first { $0.key == "client:1" }?.last == Self.now.addingTimeInterval(3))

            let nextDay = Self.now.addingTimeInterval(86400)
            #expect(
                try await store.failedAttempts(under: ["vendor:x"], since: nextDay.addingTimeInterval(-3600)).isEmpty)
            try await store.recordFailedAttempt(
                under: ["vendor:x"], at: nextDay, since: nextDay.addingTimeInterval(-3600))
            #expect(
                try await store.failedAttempts(under: ["vendor:x"], since: hourAgo).map(\.count) == [1],
                "a failure after the memory has passed starts the count again")

            try await store.clearFailedAttempts(under: "vendor:x")
            #expect(try await store.failedAttempts(under: ["vendor:x"], since: hourAgo).isEmpty)
        }
    }
}

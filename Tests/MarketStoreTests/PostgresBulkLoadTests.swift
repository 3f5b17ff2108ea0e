import MarketApp
import MarketCore
import MarketModel
import MarketTestSupport
import Testing

/// An operator who loads or changes many products in one statement (a catalogue from another
/// system, a clean-up) finds the market's totals right, and fast: they are kept once a statement.
@Suite struct PostgresBulkLoadTests {
    @Test func statementsOfThousandsOfProductsKeepTheTotal() async throws {
        try await TestStorage.withMarket(.postgres) { market in
            guard case .postgres(let url) = market.configuration.storage else { return }
            let vendor = try await market.service.registerVendor(name: "bulk").vendor
            try await TestStorage.administer(
                url,
                """
                INSERT INTO product (vendor_id, name, description, currency, price, discount, stock, search_text,
                    created_at, updated_at)
                SELECT \(vendor.id), 'Cup ' || i, 'Made in bulk.', 'KRW', 1000 + i, 0, 1,
                    'cup ' || i || E'\\nmade in bulk.', now(), now()
                FROM generate_series(1, 3000) AS i
                """)
            #expect(try await total(market) == 3000)
            try await TestStorage.administer(url, "UPDATE product SET hidden = true WHERE id % 3 = 0")
            #expect(try await total(market) == 2000)
            // 600 go, of which 200 were hidden already.
            try await TestStorage.administer(url, "DELETE FROM product WHERE id % 5 = 0")
            #expect(try await total(market) == 1600)
            try await TestStorage.administer(url, "UPDATE product SET hidden = false")
            #expect(try await total(market) == 2400)
            #expect(try await total(market, search: "bulk") == 2400)
        }
    }

    private func total(_ market: Market, search: String? = nil) async throws -> Int {
        try await market.service.products(PageRequest(number: 1, itemsPerPage: 1), search: search).totalCount
    }
}

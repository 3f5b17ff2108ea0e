import Foundation
import MarketCore
import PostgresNIO

extension PostgresMarketStore: MarketImporting {
    public func isEmpty() async throws -> Bool {
        try await database.read { session in
            try await session.single(
                """
                SELECT NOT EXISTS (SELECT 1 FROM vendor) AND NOT EXISTS (SELECT 1 FROM product)
                    AND NOT EXISTS (SELECT 1 FROM image_blob)
                """, as: Bool.self)
        }
    }

    public func importVendors(_ vendors: [StoredVendor]) async throws {
        try await database.transaction { session in
            for stored in vendors {
                let vendor = stored.vendor
                try await session.execute(
                    """
                    INSERT INTO vendor (id, identifier, name, secret_hash, created_at)
                    VALUES (\(vendor.id), \(vendor.identifier), \(vendor.name), \(stored.secretHash), \(vendor.createdAt))
                    """)
            }
        }
    }

    public func importSessions(_ sessions: [StoredSession]) async throws {
        try await database.transaction { session in
            for stored in sessions {
                try await session.execute(
                    """
                    INSERT INTO vendor_session (token_hash, vendor_id, expires_at)
                    VALUES (\(stored.tokenHash), \(stored.vendorID), \(stored.expiresAt))
                    """)
            }
        }
    }

    public func importProducts(_ products: [StoredProduct]) async throws {
        try await database.transaction { session in
            for stored in products {
                let product = stored.product
                let searchText = NewProduct.searchText(name: product.name, description: product.description)
                try await session.execute(
                    """
                    INSERT INTO product (id, vendor_id, name, description, currency, price, discount, stock,
                        cover_image_id, search_text, password_hash, created_at, updated_at, hidden)
                    VALUES (\(product.id), \(product.vendor.id), \(product.name), \(product.description),
                        \(product.currency.rawValue), \(product.price), \(product.discount), \(product.stock),
                        \(product.coverImageID), \(searchText), \(stored.passwordHash), \(product.createdAt),
                        \(product.updatedAt), \(stored.hidden))
                    """)
                for (position, image) in product.images.enumerated() {
                    try await session.execute(
                        """
                        INSERT INTO product_image (id, product_id, position, original_key, thumbnail_key, width,
                            height, created_at)
                        VALUES (\(image.id), \(product.id), \(position), \(image.originalKey), \(image.thumbnailKey),
                            \(image.width), \(image.height), \(image.createdAt))
                        """)
                }
                for token in stored.deleteTokens {
                    try await session.execute(
                        """
                        INSERT INTO delete_token (token_hash, product_id, issued_at)
                        VALUES (\(token.hash), \(product.id), \(token.issuedAt))
                        """)
                }
            }
        }
    }

    public func finishImport(lastIDs: LastIDs) async throws {
        try await database.read { session in
            let counters = [("vendor", lastIDs.vendor), ("product", lastIDs.product), ("product_image", lastIDs.image)]
            for (table, last) in counters {
                try await session.execute(
                    """
                    SELECT setval(pg_get_serial_sequence(\(table), 'id'),
                        greatest(\(last), (SELECT coalesce(max(id), 0) FROM \(unescaped: table)), 1))
                    """)
            }
            // Fresh statistics and visibility for the planner: a copied market is read at once.
            try await session.execute("VACUUM (ANALYZE)")
        }
    }
}

import Foundation
import MarketModel
import PostgresNIO

/// A product's columns as `PostgresMarketStore.productColumns` selects them, in that order; a list adds the cover's
/// thumbnail key and all thumbnail keys after them, a product's read one image's columns (or NULLs).
struct ProductRow {
    let cells: PostgresRandomAccessRow

    init(_ row: PostgresRow) { cells = row.makeRandomAccess() }

    private func value<T: PostgresDecodable>(_ index: Int, _ type: T.Type = T.self) throws -> T {
        try cells[index].decode(T.self)
    }

    private func vendor() throws -> VendorSummary {
        VendorSummary(id: try value(1), name: try value(2), createdAt: try value(3))
    }

    private func currency() throws -> Currency {
        guard let currency = Currency(rawValue: try value(6)) else {
            throw UnexpectedAnswer(description: "unknown currency in product \(try value(0, Int64.self))")
        }
        return currency
    }

    func id() throws -> Int64 { try value(0) }

    func product(images: [ProductImage]) throws -> Product {
        Product(
            id: try value(0), vendor: try vendor(), name: try value(4), description: try value(5),
            currency: try currency(), price: try value(7), discount: try value(8), stock: try value(9),
            zeroSalePriceSent: try value(13), images: images, coverImageID: try value(10), createdAt: try value(11),
            updatedAt: try value(12))
    }

    /// The image after the product's columns, if the row has one.
    func image() throws -> ProductImage? {
        guard let id = try value(14, Int64?.self) else { return nil }
        return ProductImage(
            id: id, originalKey: try value(15), thumbnailKey: try value(16), width: try value(17),
            height: try value(18), createdAt: try value(19))
    }

    func summary() throws -> ProductSummary {
        ProductSummary(
            id: try value(0), vendor: try vendor(), name: try value(4), description: try value(5),
            currency: try currency(), price: try value(7), discount: try value(8), stock: try value(9),
            zeroSalePriceSent: try value(13), thumbnailKey: try value(14, String?.self) ?? "",
            thumbnailKeys: try value(15), createdAt: try value(11))
    }
}

/// The database answered what the market never writes: a missing row a query must return, or an unknown currency.
struct UnexpectedAnswer: Error, CustomStringConvertible { var description: String }

import ArgumentParser
import Foundation
import MarketModel
import OpenMarketKit

struct Products: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse and sell on a running market.",
        example: "export OPENMARKET_IDENTIFIER=cd706a3e-66db-11ec-9626-796401f2341a",
        "export OPENMARKET_SECRET=password",
        "openmarket products add --name \"Film camera\" --price 240000 \\",
        "  --currency KRW --description \"35 mm rangefinder.\" --image front.jpg",
        "openmarket products list --search camera",
        subcommands: [List.self, Show.self, Add.self, Edit.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List products, newest first.",
            example: "openmarket products list --search 카메라 --per-page 10")

        @OptionGroup var options: ClientOptions
        @Option(help: "Page number, from 1.") var page = 1
        @Option(help: "Products per page.") var perPage = 20
        @Option(help: "Only products whose name or description contains this.") var search: String?

        func run() async throws {
            try await options.show(ProductTable.list) {
                try await $0.productsJSON(page: page, itemsPerPage: perPage, search: search)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one product and its pictures.",
            example: "openmarket products show 64")

        @OptionGroup var options: ClientOptions
        @Argument(help: "The product's id.") var id: Int64

        func run() async throws { try await options.show(ProductTable.card) { try await $0.productJSON(id: id) } }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a product with 1 to 5 pictures.",
            example: "openmarket products add --name \"Film camera\" --price 240000 \\",
            "  --discount 40000 --currency KRW --description \"35 mm rangefinder.\" \\",
            "  --image front.jpg --image back.jpg")

        @OptionGroup var options: ClientOptions
        @Option(help: "What it is called.") var name: String
        @Option(help: "Its price, in whole units of the currency.") var price: Int64
        @Option(help: "KRW or USD.") var currency: String
        @Option(help: "How much is taken off the price.") var discount: Int64 = 0
        @Option(help: "How many there are.") var stock: Int64 = 0
        @Option(help: "What a buyer should know.") var description = ""
        @Option(name: .customLong("image"), help: "A JPEG, PNG, WebP or HEIC file; repeat for more.")
        var images: [String] = []

        func run() async throws {
            let draft = try ProductDraft(
                name: name, description: description, currency: Currency(option: currency), price: price,
                discount: discount, stock: stock)
            let pictures = try images.map { path in
                do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                    throw ArgumentParser.ValidationError("cannot read --image \(path)")
                }
            }
            let size = pictures.reduce(0) { $0 + $1.count }.formatted(.byteCount(style: .file))
            FileHandle.standardError.write(
                Data("uploading \(pictures.count) picture(s), \(size), to \(options.server) …\n".utf8))
            try await options.show(ProductTable.card) { try await $0.createProductJSON(draft, images: pictures) }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change some facts of one of your products.",
            example: "openmarket products edit 65 --price 250000 --stock 2")

        @OptionGroup var options: ClientOptions
        @Argument(help: "The product's id.") var id: Int64
        @Option var name: String?
        @Option var price: Int64?
        @Option(help: "How much is taken off the price.") var discount: Int64?
        @Option var stock: Int64?
        @Option var description: String?
        @Option(help: "KRW or USD.") var currency: String?
        @Option(help: "The id of the picture lists should show.") var cover: Int64?

        func run() async throws {
            let changes = try ProductChanges(
                name: name, description: description, currency: currency.map(Currency.init(option:)), price: price,
                discount: discount.map { .amount($0) }, stock: stock, coverImageID: cover)
            try await options.show(ProductTable.card) { try await $0.updateProductJSON(id: id, changes) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete one of your products.",
            example: "openmarket products delete 65")

        @OptionGroup var options: ClientOptions
        @Argument(help: "The product's id.") var id: Int64

        func run() async throws {
            let deleted = { (product: ProductDetails) in "deleted \(product.id): \(product.listing.name)" }
            try await options.show(deleted) { try await $0.deleteProductJSON(id: id) }
        }
    }
}

extension Currency {
    /// The currency that `--currency` names.
    init(option code: String) throws {
        guard let currency = Currency(code: code) else {
            throw ArgumentParser.ValidationError("--currency must be KRW or USD")
        }
        self = currency
    }
}

import ArgumentParser
import Foundation

struct Vendors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register and list the vendors who may sell.",
        discussion: """
            Example:
              openmarket vendors add --name "team 82" --vendor-id 82
              openmarket vendors list
            """, subcommands: [Add.self, List.self, Secret.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a vendor and print its identifier and secret.",
            discussion: """
                Example:
                  openmarket vendors add --name "team 82" --vendor-id 82 --data-dir ./class
                """)

        @OptionGroup var storage: MarketOptions

        @Option(help: "The vendor's name, shown with its products.")
        var name: String

        @Option(help: "A UUID to use as the identifier, such as one an app has hard-coded (default: a new one).")
        var identifier: String?

        @Option(help: "The secret the vendor will present (default: 16 random letters and digits).")
        var secret: String?

        @Option(
            help: """
                The vendor_id its products show, such as the team number an app was written for \
                (default: the next free one).
                """)
        var vendorID: Int64?

        func run() async throws {
            let registered = try await storage.withMarket { market in
                try await market.service.registerVendor(
                    name: name, identifier: identifier, secret: secret, id: vendorID)
            }
            print("vendor_id:  \(registered.vendor.id)")
            print("name:       \(registered.vendor.name)")
            print("identifier: \(registered.vendor.identifier)")
            print("secret:     \(registered.secret)")
        }
    }

    struct Secret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Give a vendor a new secret and print it; the old one stops working and every storefront sign-in ends.",
            discussion: """
                Example:
                  openmarket vendors secret cd706a3e-66db-11ec-9626-796401f2341a
                """)

        @OptionGroup var storage: MarketOptions

        @Argument(help: "The vendor's identifier.")
        var identifier: String

        @Option(help: "The new secret, at least 8 characters (default: 16 random letters and digits).")
        var secret: String?

        func run() async throws {
            let chosen = secret
            let newSecret = try await storage.withMarket { market in
                try await market.service.replaceSecret(ofVendor: identifier, with: chosen)
            }
            print("identifier: \(identifier.lowercased())")
            print("secret:     \(newSecret)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the vendors (never their secrets).",
            discussion: """
                Example:
                  openmarket vendors list --data-dir ./class
                """)

        @OptionGroup var storage: MarketOptions

        func run() async throws {
            let vendors = try await storage.withMarket { try await $0.service.vendors() }
            print(
                "id".padding(toLength: 6, withPad: " ", startingAt: 0)
                    + "identifier".padding(toLength: 38, withPad: " ", startingAt: 0) + "name")
            for vendor in vendors {
                print(
                    String(vendor.id).padding(toLength: 6, withPad: " ", startingAt: 0)
                        + vendor.identifier.padding(toLength: 38, withPad: " ", startingAt: 0) + vendor.name)
            }
        }
    }
}

import ArgumentParser
import Foundation

struct Vendors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register and list the vendors who may sell.", subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a vendor and print its identifier and secret.")

        @OptionGroup var files: MarketFiles

        @Option(help: "The vendor's name, shown with its products.")
        var name: String

        @Option(help: "A UUID to use as the identifier, such as one an app has hard-coded (default: a new one).")
        var identifier: String?

        @Option(help: "The secret the vendor will present (default: 16 random letters and digits).")
        var secret: String?

        func run() async throws {
            let (vendor, secret) = try await files.openService().registerVendor(
                name: name, identifier: identifier, secret: secret)
            print("name:       \(vendor.name)")
            print("identifier: \(vendor.identifier)")
            print("secret:     \(secret)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the vendors (never their secrets).")

        @OptionGroup var files: MarketFiles

        func run() async throws {
            let vendors = try await files.openService().vendors()
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

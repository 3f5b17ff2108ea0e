import ArgumentParser
import Foundation
import MarketApp
import MarketCore
import MarketHTTPShared

/// The ports `serve --team-ports` gives teams of their own.
struct TeamPortsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Ports of the teams' own, one a team in the order they join, for apps that set their URL's \
            path apart from its host (OPENMARKET_TEAM_PORTS).
            """, valueName: "FIRST-LAST"))
    var teamPorts: String?

    func ports() throws -> TeamPorts? {
        guard let text = teamPorts ?? Environment.value("OPENMARKET_TEAM_PORTS") else { return nil }
        guard let ports = TeamPorts(text) else {
            throw ValidationError("--team-ports takes a port, or two joined by a dash such as 8101-8140")
        }
        return ports
    }
}

/// Where apps reach the market, for the team addresses the vendor commands print: as given, or as the market serving
/// the same data folder listens; otherwise this machine's address and `OPENMARKET_PORT`, said so.
struct MarketAddressOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            The market's address as apps reach it, which team addresses start with (default: this \
            machine's network address and OPENMARKET_PORT, or 8080).
            """, valueName: "http://HOST:PORT"))
    var marketAddress: String?

    @OptionGroup var teamPorts: TeamPortsOption

    /// The market's address and team ports, and what the address assumes when nothing said it (nil otherwise).
    func resolved(for storage: MarketOptions) throws -> (origin: String, ports: TeamPorts?, assumption: String?) {
        if let marketAddress {
            let origin = marketAddress.hasSuffix("/") ? String(marketAddress.dropLast()) : marketAddress
            return (origin, try teamPorts.ports(), nil)
        }
        if let folder = storage.folder, let serving = ServingAddress.read(from: folder) {
            return (serving.origin, try teamPorts.ports() ?? serving.teamPorts.flatMap(TeamPorts.init), nil)
        }
        let host = LocalNetwork.addresses().first ?? "127.0.0.1"
        let origin = "http://\(host):\(Environment.value("OPENMARKET_PORT", default: "8080"))"
        let assumption = """
            No market is serving \(storage.folder?.path ?? "this database") from here, so the address assumes one \
            at \(origin)\(try teamPorts.ports() == nil ? " without team ports" : ""). Give the real one with \
            --market-address http://HOST:PORT, and --team-ports as the market was started.
            """
        return (origin, try teamPorts.ports(), assumption)
    }
}

struct Vendors: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register and list the vendors who may sell.",
        example: "openmarket vendors add --name \"team 82\" --vendor-id 82",
        "openmarket vendors list --market-address http://192.168.0.10:8080",
        subcommands: [Add.self, List.self, Secret.self])

    /// What a class that has outgrown `--team-ports` is told: how many teams have no port, and the range that seats
    /// them all (the last team's needs the widest); nil when every team has one.
    static func withoutPorts(_ ports: [TeamPort]) -> String? {
        let missing = ports.filter { $0.url == nil }
        let count = counted(missing.count, "team")
        switch missing.last {
        case .rangeFull(let ports, let widened):
            return "\(count) with no port yet, as --team-ports \(ports.text) holds \(ports.teams): "
                + "start the market with --team-ports \(widened.text) to give every team one"
        case .outOfPorts(let ports):
            return "\(count) with no port yet, as --team-ports \(ports.text) holds \(ports.teams) and no port follows "
                + "65535: start the market with a range that starts lower"
        case .url, nil: return nil
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a vendor and print its identifier and secret.",
            example: "openmarket vendors add --name \"team 82\" --vendor-id 82 --data-dir ./class")

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

        @OptionGroup var address: MarketAddressOption

        func run() async throws {
            let registered = try await storage.withMarket { market in
                try await market.service.registerVendor(
                    name: name, identifier: identifier, secret: secret, id: vendorID, asTeam: true)
            }
            print("vendor_id:  \(registered.vendor.id)")
            print("name:       \(registered.vendor.name)")
            print("identifier: \(registered.vendor.identifier)")
            print("secret:     \(registered.secret)")
            let market = try address.resolved(for: storage)
            print("address:    \(TeamAddress.url(of: registered.vendor.id, on: market.origin))")
            if let port = market.ports?.address(of: registered.vendor, on: market.origin) {
                print("own port:   \(port.english)")
            }
            if let assumption = market.assumption { FileHandle.standardError.write(Data((assumption + "\n").utf8)) }
        }
    }

    struct Secret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Give a vendor a new secret and print it; the old one stops working and every storefront sign-in ends.",
            example: "openmarket vendors secret cd706a3e-66db-11ec-9626-796401f2341a")

        @OptionGroup var storage: MarketOptions

        @Argument(help: "The vendor's identifier.")
        var identifier: String

        @Option(help: "The new secret, at least 8 characters (default: 16 random letters and digits).")
        var secret: String?

        func run() async throws {
            let newSecret = try await storage.withMarket { market in
                try await market.service.replaceSecret(ofVendor: identifier, with: secret)
            }
            print("identifier: \(identifier.lowercased())")
            print("secret:     \(newSecret)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the vendors (never their secrets).",
            example: "openmarket vendors list --data-dir ./class")

        @OptionGroup var storage: MarketOptions
        @OptionGroup var address: MarketAddressOption

        func run() async throws {
            let vendors = try await storage.withMarket { try await $0.service.vendors() }
            let market = try address.resolved(for: storage)
            let ports = vendors.map { market.ports?.address(of: $0, on: market.origin) }
            let rows = zip(vendors, ports).map { vendor, port in
                let address =
                    MarketService.hasTeamAddress(vendor) ? TeamAddress.url(of: vendor.id, on: market.origin) : ""
                return [
                    String(vendor.id), vendor.identifier, address, port.map { $0.url ?? "none" } ?? "", vendor.name,
                ]
            }
            for line in TextTable.lines([["id", "identifier", "team address", "own port", "name"]] + rows) {
                print(line)
            }
            if let missing = Vendors.withoutPorts(ports.compactMap { $0 }) { print(missing) }
            if let assumption = market.assumption { FileHandle.standardError.write(Data((assumption + "\n").utf8)) }
        }
    }
}

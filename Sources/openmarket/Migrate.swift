import ArgumentParser
import Foundation
import MarketApp

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a whole market from its folder into an empty PostgreSQL database.",
        discussion: """
            Vendors, products, pictures, delete secrets and the session key move with their ids, so every \
            URL and every id an app remembers stays valid. Stop the servers of the folder first.

            Example:
              openmarket migrate --data-dir ./data \\
                --to postgres://openmarket:PASSWORD@127.0.0.1/openmarket
            """)

    @Option(help: "The market's folder (OPENMARKET_DATA_DIR).")
    var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

    @Option(
        help: ArgumentHelp(
            "The empty database to copy into.", valueName: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"))
    var to: String

    @OptionGroup var output: QuietOption

    func run() async throws {
        let folder = URL(fileURLWithPath: dataDir, isDirectory: true)
        let copied = try await output.run(
            stopped: "the database is empty again: run the same command to copy the market afresh"
        ) { progress in
            try await MarketMigration.copy(from: folder, to: to, progress: progress)
        }
        let vendors = counted(copied.vendors, "vendor")
        let products = counted(copied.products, "product")
        print(
            "done: \(vendors), \(products) and \(counted(copied.pictures, "picture")) now live in the database;"
                + " start it with openmarket serve --database \(Self.withoutPassword(to))")
    }

    /// The address as the command was given it, its password (which the terminal has seen once already) left out.
    static func withoutPassword(_ address: String) -> String {
        guard var components = URLComponents(string: address), components.password != nil else { return address }
        components.password = nil
        return (components.string ?? address) + " (and the password you gave here)"
    }
}

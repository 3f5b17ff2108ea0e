import ArgumentParser

@main
struct OpenMarketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openmarket",
        abstract: "A self-hosted market for the Open Market apps.",
        subcommands: [
            Serve.self, Vendors.self, Operators.self, Products.self, Faults.self, Inspect.self, Snapshot.self,
            Migrate.self,
        ])
}

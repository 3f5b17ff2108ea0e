import ArgumentParser
import CProcess

@main
struct OpenMarketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openmarket",
        abstract: "A self-hosted market for the Open Market apps.",
        example: "# A market with 64 products at http://127.0.0.1:8080:",
        "openmarket serve --demo",
        "openmarket vendors add --name \"team 82\" --vendor-id 82",
        "# Each command's own example:",
        "openmarket help faults set",
        subcommands: [
            Serve.self, Vendors.self, Operators.self, Products.self, Faults.self, Inspect.self, Snapshot.self,
            Migrate.self, Health.self,
        ])

    static func main() async {
        crash_report_install()
        allocator_return_large_blocks()
        await main(nil)
    }
}

extension CommandConfiguration {
    /// A command whose discussion is only its worked example: `Example:`, then each command line indented by two.
    init(
        commandName: String? = nil, abstract: String, example first: String, _ more: String...,
        subcommands: [any ParsableCommand.Type] = []
    ) {
        self.init(
            commandName: commandName, abstract: abstract,
            discussion: (["Example:", "  " + first] + more.map { "  " + $0 }).joined(separator: "\n"),
            subcommands: subcommands)
    }
}

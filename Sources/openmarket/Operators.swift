import ArgumentParser

struct Operators: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register the people who run the market; they sign in to /operator.",
        example: "openmarket operators add --name teacher",
        subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an operator and print their secret once.",
            example: "openmarket operators add --name teacher --data-dir ./class")

        @OptionGroup var storage: MarketOptions

        @Option(help: "The operator's name, which they sign in with.") var name: String

        @Option(help: "The secret they will present, at least 8 characters (default: 16 random letters and digits).")
        var secret: String?

        func run() async throws {
            let issued = try await storage.withMarket { market in
                try await market.service.registerOperator(name: name, secret: secret)
            }
            print("name:   \(name.trimmingCharacters(in: .whitespaces))")
            print("secret: \(issued)")
        }
    }
}

import ArgumentParser
import Foundation
import MarketApp
import MarketCore

struct Faults: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Stage failures for one vendor's requests, or every team's, so that apps rehearse a slow or failing market.",
        discussion: """
            A vendor's faults touch only requests that carry that vendor's identifier or come through \
            its team address (and its storefront sign-in), never anyone else's. With --every-team, \
            every team's app meets them beside its own: the latencies add up, and a request meets the \
            class's failures first. A running market picks them up within a second.

            Example: a second's delay, one request in ten failing and one answer in five arriving \
            with its price as text or its name null, the same way each time:

              openmarket faults set --identifier YOUR-IDENTIFIER \\
                --latency 800ms±200ms --fail 10% \\
                --broken 20% --broken-kinds number_as_text,null --seed 7

            Hard cases change what a team's reads answer, not whether they fail: its lists, details \
            and pictures answer as if the market held an empty catalogue, a thousand pages, prices \
            at the edges and so on, while everyone else sees the market as it is:

              openmarket faults set --identifier YOUR-IDENTIFIER --hard-cases shifting,missing_picture
            """,
        subcommands: [Set.self, Show.self, Clear.self])

    /// Whose faults: one vendor's, or every team's.
    struct Target: ParsableArguments {
        @Option(help: "The vendor's identifier.") var identifier: String?

        @Flag(help: "Every team of the class at once, beside each team's own faults.") var everyTeam = false

        func validate() throws {
            guard (identifier == nil) == everyTeam else {
                throw ValidationError("name one vendor with --identifier, or every team with --every-team")
            }
        }

        func faults(in market: Market) async throws -> FaultSettings? {
            guard let identifier else { return try await market.faults.classFaults() }
            return try await market.faults.faults(of: try await market.vendor(identifiedBy: identifier).id)
        }

        /// Every team's faults are the class's rehearsal, which the console's log shows as set from a shell.
        func set(_ faults: FaultSettings?, in market: Market) async throws {
            guard let identifier else {
                return try await market.service.rehearseForEveryTeam(faults, with: market.faults, by: .shell)
            }
            try await market.faults.setFaults(faults, vendorID: try await market.vendor(identifiedBy: identifier).id)
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a vendor's faults, replacing any set before.",
            example: "openmarket faults set --identifier cd706a3e-66db-11ec-9626-796401f2341a \\",
            "  --latency 2s --fail 20% --status 500 --seed 1",
            "openmarket faults set --every-team --latency 2s --broken 10% --broken-kinds number_as_text")

        @OptionGroup var storage: MarketOptions
        @OptionGroup var target: Target

        @Option(help: "Added to every answer, such as 800ms, 2s or 800ms±400ms (also 800ms+-400ms).")
        var latency: String?

        @Option(help: "The share of requests that fail, such as 10%.") var fail: String?

        @Option(help: "The status failing requests get (400–599).") var status = 503

        @Option(help: "The share of requests whose connection is dropped without an answer, such as 5%.")
        var drop: String?

        @Option(help: "How long each answer's body takes to arrive, such as 3s.") var slowBody: String?

        @Option(help: "The share of successful answers that arrive broken, such as 20%.") var broken: String?

        @Option(
            help: """
                How answers break, separated by commas (every kind when left out): \
                \(BrokenAnswer.allCases.map(\.rawValue).joined(separator: ", ")).
                """)
        var brokenKinds: String?

        @Option(
            help: """
                Catalogues the reads answer with instead of the market's, separated by commas: \
                \(HardCase.allCases.map(\.rawValue).joined(separator: ", ")).
                """)
        var hardCases: String?

        @Option(help: "Makes the failures and the hard cases' products repeat each time these faults are set.")
        var seed: UInt64?

        func run() async throws {
            let (latency, jitter) = try FaultText.latency(latency ?? "0ms")
            let faults = FaultSettings(
                latencyMs: latency, jitterMs: jitter, failPercent: try FaultText.percent(fail ?? "0%", flag: "--fail"),
                status: status, dropPercent: try FaultText.percent(drop ?? "0%", flag: "--drop"),
                slowBodyMs: try FaultText.milliseconds(slowBody ?? "0ms", flag: "--slow-body"),
                brokenPercent: try FaultText.percent(broken ?? "0%", flag: "--broken"),
                broken: try BrokenAnswer.named(brokenKinds.map { $0.split(separator: ",").map(String.init) } ?? []),
                hardCases: try HardCase.named(hardCases.map { $0.split(separator: ",").map(String.init) } ?? []),
                seed: seed)
            let set = try await storage.withMarket { market in
                try await target.set(faults, in: market)
                return try await target.faults(in: market)
            }
            print(set.map(FaultText.describe) ?? "no faults: every setting is off")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a vendor's faults, or every team's.",
            example: "openmarket faults show --identifier cd706a3e-66db-11ec-9626-796401f2341a",
            "openmarket faults show --every-team")

        @OptionGroup var storage: MarketOptions
        @OptionGroup var target: Target

        func run() async throws {
            let faults = try await storage.withMarket { market in try await target.faults(in: market) }
            print(faults.map(FaultText.describe) ?? "no faults")
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Switch a vendor's faults off, or every team's.",
            example: "openmarket faults clear --identifier cd706a3e-66db-11ec-9626-796401f2341a",
            "openmarket faults clear --every-team")

        @OptionGroup var storage: MarketOptions
        @OptionGroup var target: Target

        func run() async throws {
            try await storage.withMarket { market in try await target.set(nil, in: market) }
            print("no faults")
        }
    }
}

/// Faults as a person types them on the command line, and back.
enum FaultText {
    static func latency(_ text: String) throws -> (Int, Int) {
        let halves = text.replacingOccurrences(of: "+-", with: "±").split(separator: "±", maxSplits: 1)
        let latency = try milliseconds(String(halves.first ?? "0ms"), flag: "--latency")
        let jitter = try halves.count > 1 ? milliseconds(String(halves[1]), flag: "--latency") : 0
        return (latency, jitter)
    }

    static func milliseconds(_ text: String, flag: String) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (digits, scale) =
            trimmed.hasSuffix("ms")
            ? (trimmed.dropLast(2), 1) : trimmed.hasSuffix("s") ? (trimmed.dropLast(), 1000) : (trimmed[...], 1)
        guard let value = Double(digits), value >= 0 else {
            throw ValidationError("\(flag) must be a time such as 800ms or 2s, not \(text)")
        }
        return Int(value * Double(scale))
    }

    static func percent(_ text: String, flag: String) throws -> Int {
        let digits = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")
        guard let value = Int(digits) else { throw ValidationError("\(flag) must be a share such as 10%, not \(text)") }
        return value
    }

    static func describe(_ faults: FaultSettings) -> String {
        var lines = ["latency:   \(faults.latencyMs)ms±\(faults.jitterMs)ms"]
        lines.append("fail:      \(faults.failPercent)% with status \(faults.status)")
        lines.append("drop:      \(faults.dropPercent)%")
        lines.append("slow body: \(faults.slowBodyMs)ms")
        let kinds = faults.broken.isEmpty ? "any kind" : faults.broken.map(\.rawValue).joined(separator: ", ")
        lines.append("broken:    \(faults.brokenPercent)% (\(kinds))")
        let cases = faults.hardCases.isEmpty ? "none" : faults.hardCases.map(\.rawValue).joined(separator: ", ")
        lines.append("hard cases: \(cases)")
        lines.append("seed:      \(faults.seed.map(String.init) ?? "none (a new sequence each time)")")
        return lines.joined(separator: "\n")
    }
}

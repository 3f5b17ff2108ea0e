import Foundation
import MarketTestSupport
import Testing

/// What the documentation shows works: every shell example marked `sh tested` runs against a demo
/// market of its own, and every command's help carries a worked example.
@Suite struct DocumentationTests {
    static let repository = LoadBalancer.repository

    /// README.md and every page in docs/ that has examples marked to run.
    static let documents: [String] = {
        let docs =
            (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path))
            ?? []
        return (["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }).filter {
            examples(in: $0).isEmpty == false
        }
    }()

    /// The shell blocks of a document marked `sh tested`, as written (a list item's indent removed).
    static func examples(in document: String) -> [String] {
        let text = (try? String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)) ?? ""
        var blocks: [String] = []
        var block: [Substring]?
        var indent = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if block == nil, trimmed == "```sh tested" {
                (block, indent) = ([], line.count - trimmed.count)
            } else if block != nil, trimmed == "```" {
                blocks.append(block!.joined(separator: "\n"))
                block = nil
            } else if block != nil {
                block!.append(line.dropFirst(min(indent, line.count - line.drop { $0 == " " }.count)))
            }
        }
        return blocks
    }

    /// The database the operators' examples name.
    static let documentedDatabase = "postgres://openmarket:PASSWORD@127.0.0.1/openmarket"

    @Test(arguments: documents)
    func everyExampleMarkedTestedRunsAgainstADemoMarket(document: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openmarket-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try OpenMarketBinary.start([
            "serve", "--demo", "--port", "0", "--data-dir", folder.appendingPathComponent("data").path,
        ])
        let port = try await server.listeningPort()
        for (name, dots) in [("front.jpg", 1), ("back.jpg", 2), ("watch.jpg", 3)] {
            try TestImages.jpeg(dots: dots).write(to: folder.appendingPathComponent(name))
        }
        // Every curl of an example fails on an error status, as a reader would notice one.
        let curl = folder.appendingPathComponent("bin/curl")
        try "#!/bin/sh\nexec /usr/bin/curl --fail-with-body --silent --show-error \"$@\"\n".write(
            to: curl, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: curl.path)

        let market = "http://127.0.0.1:\(port)"
        let examples = Self.examples(in: document)
        // An example that names the docs' PostgreSQL database gets an empty one of the test cluster.
        let database =
            examples.contains { $0.contains(Self.documentedDatabase) } ? try await TestStorage.createDatabase() : nil
        let script = examples.enumerated().map { number, example in
            var example = example.replacingOccurrences(of: "http://127.0.0.1:8080", with: market)
            if let database { example = example.replacingOccurrences(of: Self.documentedDatabase, with: database) }
            return "echo '--- example \(number + 1)' >&2\n" + example
        }.joined(separator: "\n")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = [
            curl.deletingLastPathComponent().path, OpenMarketBinary.url.deletingLastPathComponent().path,
            environment["PATH"] ?? "/usr/bin:/bin",
        ].joined(separator: ":")
        environment["OPENMARKET_SERVER"] = market
        let output = Pipe()
        let process = try ChildProcess(
            "/bin/bash", ["-euo", "pipefail", "-c", "cd \"$0\"\n" + script, folder.path], environment: environment,
            output: output.fileHandleForWriting.fileDescriptor, errors: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        let printed = String(decoding: await output.readToEnd(), as: UTF8.self)
        #expect(await process.exitStatus() == 0, "\(document):\n\(printed)")
        #expect(try await server.terminate() == 0)
        if let database { try await TestStorage.dropDatabase(database) }
    }

    static let commands = [
        [], ["serve"], ["vendors"], ["vendors", "add"], ["vendors", "list"], ["vendors", "secret"], ["operators"],
        ["operators", "add"], ["products"], ["products", "list"], ["products", "show"], ["products", "add"],
        ["products", "edit"], ["products", "delete"], ["faults"], ["faults", "set"], ["faults", "show"],
        ["faults", "clear"], ["inspect"], ["snapshot"], ["snapshot", "save"], ["snapshot", "restore"], ["migrate"],
    ]

    @Test(arguments: commands)
    func everyCommandsHelpCarriesAWorkedExampleThatFitsATerminal(command: [String]) async throws {
        let help = try await OpenMarketBinary.run(command + ["--help"])
        #expect(help.status == 0)
        let example = help.output.split(separator: "\n").drop { !$0.hasPrefix("Example") }.prefix {
            !$0.hasPrefix("USAGE")
        }
        #expect(example.contains { $0.hasPrefix("  openmarket " + command.joined(separator: " ")) }, "\(help.output)")
        #expect(example.allSatisfy { $0.count <= 80 }, "a line the terminal would wrap: \(example)")
    }
}

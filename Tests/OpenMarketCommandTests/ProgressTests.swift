import Foundation
import Glibc
import MarketCore
import MarketTestSupport
import Testing

/// Long commands say how far they are: a line redrawn in place on a terminal, a plain line a step or a tenth in a
/// pipe, nothing but the last line with --quiet; stopped with Ctrl-C, they leave nothing half-written and say so.
@Suite struct ProgressTests {
    /// A market's folder whose store holds `pictures` pictures (and one product), for a command to copy.
    static func market(pictures: Int) async throws -> URL {
        let market = try await TestMarket()
        try await market.addProduct("Lamp")
        for index in 0..<pictures {
            let bytes = Data("a picture's bytes, number \(index)".utf8) + Data(count: 4096)
            try await market.images.put(bytes, key: Digest.sha256Hex(bytes) + ".jpg")
        }
        return market.directory
    }

    /// What a command wrote: standard output through a pipe, standard error on a terminal or through a pipe.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `openmarket` with its standard error on a pseudo-terminal; `whileRunning` may act once `shown` is seen.
    static func onTerminal(
        _ arguments: [String], once shown: String? = nil, _ whileRunning: @Sendable (ChildProcess) -> Void = { _ in }
    ) async throws -> Run {
        let terminal = try PseudoTerminal()
        let output = Pipe()
        let process = try ChildProcess(
            OpenMarketBinary.url.path, arguments, output: output.fileHandleForWriting.fileDescriptor,
            errors: terminal.terminal)
        terminal.handedOver()
        try output.fileHandleForWriting.close()
        var errors = ""
        if let shown {
            errors = await terminal.read { $0.contains(shown) }
            whileRunning(process)
        }
        errors += await terminal.read()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Run(status: await process.exitStatus(), output: printed, errors: errors)
    }

    @Test func aSnapshotOnATerminalRedrawsOneLineAndInAPipeWritesATenthALine() async throws {
        let folder = try await Self.market(pictures: 300)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lesson.market").path
        let shown = try await Self.onTerminal(["snapshot", "save", "--data-dir", folder.path, file])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(shown.output == "saved 1 product and 302 pictures in \(file)\n")
        #expect(shown.errors.contains("\rpictures: 302 of 302 (100 %)"), "\(shown.errors)")
        #expect(shown.errors.contains("\r\u{1B}[K"), "the line is cleared before the last one is printed")
        let redrawn = shown.errors.split(separator: "\r").filter { $0.hasPrefix("pictures: ") }
        #expect(redrawn.allSatisfy { $0.wholeMatch(of: #/pictures: [\d,]+ of 302 \(\d+ %\).*\e\[K/#) != nil })

        try FileManager.default.removeItem(atPath: file)
        let piped = try await OpenMarketBinary.run(["snapshot", "save", "--data-dir", folder.path, file])
        #expect(piped.status == 0 && piped.output == shown.output)
        #expect(!piped.errors.contains("\r") && !piped.errors.contains("\u{1B}"), "no redrawing in a pipe")
        let lines = piped.errors.split(separator: "\n")
        #expect(lines.first == "the database…")
        #expect(lines.filter { $0.hasPrefix("pictures: ") }.count == 11, "one a tenth, from none to all: \(lines)")

        try FileManager.default.removeItem(atPath: file)
        let quiet = try await OpenMarketBinary.run(["snapshot", "save", "--quiet", "--data-dir", folder.path, file])
        #expect(quiet.status == 0 && quiet.output == shown.output && quiet.errors.isEmpty)
    }

    @Test func aRestoreShowsHowFarItIsAndItsLastLine() async throws {
        let folder = try await Self.market(pictures: 20)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lesson.market").path
        #expect(
            try await OpenMarketBinary.run(["snapshot", "save", "--quiet", "--data-dir", folder.path, file]).status == 0
        )
        let into = folder.appendingPathComponent("restored").path
        let restored = try await Self.onTerminal(["snapshot", "restore", "--data-dir", into, file])
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.output == "restored \(file); start it with openmarket serve --data-dir \(into)\n")
        #expect(restored.errors.contains("\rthe database…"))
        #expect(restored.errors.contains("\rpictures: 22 of 22 (100 %)"))
    }

    /// Stopped halfway, a save names no file by the name given, and says so.
    @Test func ctrlCStopsASaveAndLeavesNoFile() async throws {
        let folder = try await Self.market(pictures: 3000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lesson.market").path
        let stopped = try await Self.onTerminal(
            ["snapshot", "save", "--data-dir", folder.path, file], once: "pictures: "
        ) {
            $0.signal(SIGINT)
        }
        #expect(stopped.status == 130)
        #expect(stopped.errors.contains("stopped: nothing was saved; \(file) was not written"), "\(stopped.errors)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        #expect(stopped.output.isEmpty)
    }

    /// Ctrl-C counts from the first thing the command says: the handler is in place before any line is shown.
    @Test func ctrlCAsTheFirstLineIsShownStopsASaveToo() async throws {
        let folder = try await Self.market(pictures: 3000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lesson.market").path
        let stopped = try await Self.onTerminal(
            ["snapshot", "save", "--data-dir", folder.path, file], once: "the database"
        ) {
            $0.signal(SIGINT)
        }
        #expect(stopped.status == 130, "\(stopped.errors)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
    }

    /// Stopped halfway, a migration empties the database again: the same command then copies the market whole.
    @Test func ctrlCStopsAMigrationThatTheSameCommandThenDoesAfresh() async throws {
        let folder = try await Self.market(pictures: 3000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try await TestStorage.createDatabase()
        do {
            let stopped = try await Self.onTerminal(
                ["migrate", "--data-dir", folder.path, "--to", url], once: "pictures: "
            ) {
                $0.signal(SIGINT)
            }
            #expect(stopped.status == 130, "\(stopped.errors)")
            #expect(stopped.errors.contains("stopped: the database is empty again: run the same command"))
            let again = try await OpenMarketBinary.run(["migrate", "--quiet", "--data-dir", folder.path, "--to", url])
            #expect(again.status == 0, "\(again.errors)")
            #expect(again.errors.isEmpty)
            #expect(again.output.contains(/^done: \d+ vendors, 1 product and 3,002 pictures now live in the database;/))
        } catch {
            try await TestStorage.dropDatabase(url)
            throw error
        }
        try await TestStorage.dropDatabase(url)
    }

    /// `serve --demo` on an empty market shows the demo's fill, then says what it added and serves.
    @Test func theFirstDemoFillShowsHowFarItIs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmarket-demo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try PseudoTerminal()
        let server = try OpenMarketBinary.start(
            ["serve", "--demo", "--port", "0", "--data-dir", folder.path], errors: terminal.terminal)
        terminal.handedOver()
        _ = try await server.waitForLog("(Open Market is open at)")
        let log = server.logText
        #expect(try await server.terminate() == 0)
        let shown = await terminal.read()
        #expect(shown.contains("\rdemo products: 64 of 64 (100 %)"), "\(shown)")
        #expect(log.contains("added 64 demo products"))
    }
}

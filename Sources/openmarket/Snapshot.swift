import ArgumentParser
import Foundation
import MarketApp

struct Snapshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Save a whole market (database and pictures) in one file, or restore one.",
        example: "openmarket snapshot save --data-dir ./class lesson-3.market",
        "openmarket snapshot restore --data-dir ./class-b lesson-3.market",
        subcommands: [Save.self, Restore.self])

    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a whole market in one file (a SQLite file that the sqlite3 tool reads too).",
            example: "openmarket snapshot save --data-dir ./class lesson-3.market")

        @Option(help: "The market's folder (OPENMARKET_DATA_DIR).")
        var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

        @Option(help: ArgumentHelp("Save the market kept in this database instead.", valueName: "postgres://…"))
        var database: String?

        @Argument(help: "The file to write; it must not exist.")
        var file: String

        @OptionGroup var output: QuietOption

        func run() async throws {
            let target = URL(fileURLWithPath: file)
            let saved = try await output.run(stopped: "nothing was saved; \(file) was not written") { progress in
                if let database {
                    try await MarketSnapshot.save(fromDatabase: database, to: target, progress: progress)
                } else {
                    try await MarketSnapshot.save(
                        from: URL(fileURLWithPath: dataDir, isDirectory: true), to: target, progress: progress)
                }
            }
            print("saved \(counted(saved.products, "product")) and \(counted(saved.images, "picture")) in \(file)")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore a saved market into an empty folder or an empty PostgreSQL database.",
            example: "openmarket snapshot restore --data-dir ./class-b lesson-3.market")

        @Option(help: "The empty folder to restore into (OPENMARKET_DATA_DIR).")
        var dataDir: String = Environment.value("OPENMARKET_DATA_DIR", default: "./data")

        @Option(help: ArgumentHelp("Restore into this empty database instead.", valueName: "postgres://…"))
        var database: String?

        @Argument(help: "The file `snapshot save` wrote.")
        var file: String

        @OptionGroup var output: QuietOption

        func run() async throws {
            let snapshot = URL(fileURLWithPath: file)
            let into = database == nil ? dataDir : "the database"
            try await output.run(stopped: "nothing was restored; \(into) holds no market") { progress in
                if let database {
                    try await MarketSnapshot.restore(snapshot, intoDatabase: database, progress: progress)
                } else {
                    try await MarketSnapshot.restore(
                        snapshot, into: URL(fileURLWithPath: dataDir, isDirectory: true), progress: progress)
                }
            }
            let start = database == nil ? "--data-dir \(dataDir)" : "--database …"
            print("restored \(file); start it with openmarket serve \(start)")
        }
    }
}

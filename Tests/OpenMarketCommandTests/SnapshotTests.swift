import Foundation
import MarketTestSupport
import Testing

/// A whole market in one file, restored elsewhere, answers exactly as before.
@Suite struct SnapshotTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID())").path

    @Test func aRestoredMarketAnswersEveryRequestAsTheSavedOneInAFolderAndInPostgreSQLAndBack() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let saved = folder + "/saved", restored = folder + "/restored", file = folder + "/market.snapshot"
        let before = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", saved])
        let old = MarketPeer(port: try await before.listeningPort())
        let item = try await MigrateCommandTests.postItem(old, title: "Apple Watch", images: [try TestImages.jpeg()])
        let ids = [1, 2, 17, 64, item]
        let expected = try await MigrateCommandTests.answers(port: old.port, ids: ids)
        #expect(try await before.terminate() == 0)

        let save = try await OpenMarketBinary.run(["snapshot", "save", "--data-dir", saved, file])
        #expect(save.status == 0, "\(save.errors)")
        #expect(save.output.contains("saved 65 products and"))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600, "a snapshot holds every secret's hash and the session key: its owner's alone")
        let again = try await OpenMarketBinary.run(["snapshot", "save", "--data-dir", saved, file])
        #expect(again.status != 0 && again.errors.contains("exists already"))

        let restore = try await OpenMarketBinary.run(["snapshot", "restore", "--data-dir", restored, file])
        #expect(restore.status == 0, "\(restore.errors)")
        let twice = try await OpenMarketBinary.run(["snapshot", "restore", "--data-dir", restored, file])
        #expect(twice.status != 0 && twice.errors.contains("holds a market already"))

        let database = try await TestStorage.createDatabase()
        let intoDatabase = try await OpenMarketBinary.run(["snapshot", "restore", "--database", database, file])
        #expect(intoDatabase.status == 0, "\(intoDatabase.errors)")

        let savedFromDatabase = folder + "/from-database.snapshot", restoredAgain = folder + "/again"
        let saveDatabase = try await OpenMarketBinary.run([
            "snapshot", "save", "--database", database, savedFromDatabase,
        ])
        #expect(saveDatabase.status == 0, "\(saveDatabase.errors)")
        #expect(saveDatabase.output.contains("saved 65 products and"))
        #expect(try FileManager.default.attributesOfItem(atPath: savedFromDatabase)[.posixPermissions] as? Int == 0o600)
        let restoreAgain = try await OpenMarketBinary.run([
            "snapshot", "restore", "--data-dir", restoredAgain, savedFromDatabase,
        ])
        #expect(restoreAgain.status == 0, "\(restoreAgain.errors)")

        for storage in [["--data-dir", restored], ["--database", database], ["--data-dir", restoredAgain]] {
            let after = try OpenMarketBinary.start(["serve", "--port", "0"] + storage)
            let port = try await after.listeningPort()
            let actual = try await MigrateCommandTests.answers(port: port, ids: ids)
            #expect(actual.count == expected.count && expected.count > 30)
            for (address, answer) in expected {
                let now = try #require(actual[address])
                #expect(
                    now.status == answer.status && MigrateCommandTests.same(now, answer), "\(storage[0]) \(address)")
            }
            var visitor = StorefrontVisitor(port: port)
            #expect(try await visitor.signIn().status == 303, "the vendors and their secrets came along")
            #expect(try await after.terminate() == 0)
        }
        try await TestStorage.dropDatabase(database)
    }

    @Test func aFileThatIsNoSnapshotIsRefusedInWords() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/notes.txt"
        try Data("shopping list".utf8).write(to: URL(fileURLWithPath: file))
        let restore = try await OpenMarketBinary.run(["snapshot", "restore", "--data-dir", folder + "/market", file])
        #expect(restore.status != 0)
        #expect(restore.errors.contains("is not a market snapshot"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/market/market.sqlite"))
    }
}

import Foundation
import MarketTestSupport
import Testing

/// The picture path crosses into libvips, whose faults the tests put into a real market with
/// LD_PRELOAD (`VipsFault`): one the market survives, and one that shows what a crash leaves behind.
@Suite struct PicturePathCrashTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID())").path

    /// libvips 8.14 (Debian 12's) lets a worker that has sat idle stop while a task is being handed
    /// to it, and the task is written into freed memory: the crash of a demo fill. Made certain here,
    /// it would end the market on its first picture.
    @Test func aLibvipsWorkerThatStopsWhileGivenAPictureNeverTakesTheMarketDown() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let filled = try OpenMarketBinary.start(["serve", "--demo", "--port", "0", "--data-dir", folder])
        _ = try await filled.listeningPort()
        #expect(try await filled.terminate() == 0)

        let server = try OpenMarketBinary.start(
            ["serve", "--port", "0", "--data-dir", folder], environment: try VipsFault.idleRace.environment())
        let market = MarketPeer(port: try await server.listeningPort())
        for photo in [try TestImages.jpeg(width: 2016, height: 1512), try TestImages.jpeg(width: 1200, height: 900)] {
            let created = try await market.create("Taken by phone", by: TestMarket.papri, images: [photo])
            #expect(created.status == 201, "\(created.text)\n\(server.logText)")
            let thumbnail = try #require(try created.json["thumbnail"] as? String)
            let served = try await market.send("GET", try #require(URL(string: thumbnail)?.path))
            #expect(served.status == 200 && served.body.starts(with: [0xFF, 0xD8, 0xFF]))
        }
        #expect(try await server.terminate() == 0)
    }

    /// Swift's own backtracer stops at the first C frame built without frame pointers (libc, GLib,
    /// libvips), as it did in the demo fill's crash; the crash report walks every frame and names it.
    @Test func aCrashLeavesEveryFrameOfTheCrashedThreadNamedInTheLog() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Swift's backtracer, which follows the report, is left out: it takes seconds to read every thread, and
        // under AddressSanitizer it waits for good on the process that died meanwhile.
        let server = try OpenMarketBinary.start(
            ["serve", "--demo", "--port", "0", "--data-dir", folder],
            environment: try VipsFault.abort.environment().merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 })
        #expect(await server.exitStatus() == SIGABRT)
        let log = server.logText
        let report = try #require(
            log.firstRange(of: #/\*\*\* openmarket crashed on SIGABRT in thread "[^"]*"[^\n]*\n(?<frames>(  #.*\n)+)/#),
            "\(log)")
        let frames = log[report].split(separator: "\n").dropFirst()
        // Innermost first: libc's abort, the fault, our C bridge, the Swift that called it, the thread's start.
        let path = ["abort", "vips_thumbnail_buffer", "omk_decode", "14DecodedPicture", "_dispatch_worker_thread"]
        let found = path.map { name in frames.firstIndex { $0.contains(name) } }
        #expect(found.allSatisfy { $0 != nil } && found == found.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(frames)")
        #expect(frames.allSatisfy { $0.contains(" + 0x") }, "every frame placed in its module")
        #expect(log[report.upperBound...].contains("*** end of the crashed thread"))
    }
}

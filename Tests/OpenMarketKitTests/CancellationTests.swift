import Foundation
import MarketTestSupport
import OpenMarketKit
import Synchronization
import Testing

/// Cancelling a call, a picture or a page at any moment, as fast scrolling and a dismissed screen
/// do, never wedges anything (on Linux a cancelled transfer could deadlock inside
/// FoundationNetworking) and is never reported as a failure.
@Suite struct CancellationTests {
    static let races = 300

    /// Runs `races` rounds of `round`. A wedge blocks the threads Swift's tasks run on, so no task
    /// could notice it: a plain thread ends the test process with a message instead if the rounds
    /// have not all finished within two minutes, rather than let the suite hang.
    static func finishes(_ round: @escaping @Sendable (Int) async -> Void) async {
        let done = Atomic(false)
        let watchdog = Thread {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                if done.load(ordering: .acquiring) { return }
                // Nothing can signal this thread from a wedged pool, so it looks at the flag itself.
                Thread.sleep(forTimeInterval: 0.5)
            }
            FileHandle.standardError.write(Data("\(races) cancel races did not all finish: something wedged\n".utf8))
            exit(1)
        }
        watchdog.start()
        for number in 0..<races { await round(number) }
        done.store(true, ordering: .releasing)
    }

    /// Cancels `task` after a few microseconds, so that some rounds cancel before the request
    /// leaves, some while it is in flight and some just as the answer arrives.
    static func cancel<T>(_ task: Task<T, any Error>, round: Int) async {
        // Not a wait for anything: the varying pause is what spreads the cancels over the call's life.
        if round % 3 > 0 { try? await Task.sleep(for: .microseconds(round % 7 * 150)) }
        task.cancel()
    }

    @Test func hundredsOfCancelledCallsAndPicturesAllFinish() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Raced", imageCount: 2)
            let base = "http://127.0.0.1:\(market.port)"
            let client = OpenMarketClient(baseURL: URL(string: base)!)
            let picture = URL(string: "\(base)/images/\(product.images[0].originalKey)")!
            await Self.finishes { round in
                let call = Task { try await client.products(page: 1, itemsPerPage: 20) }
                await Self.cancel(call, round: round)
                switch await call.result {
                case .success(let page): #expect(!page.products.isEmpty)
                case .failure(let error): #expect(error is CancellationError, "\(error)")
                }
                let loader = ImageLoader()
                let image = Task { try await loader.image(at: picture) }
                await Self.cancel(image, round: round)
                switch await image.result {
                case .success(let data): #expect(!data.isEmpty)
                case .failure(let error): #expect(error is CancellationError, "\(error)")
                }
            }
            #expect(try await client.product(id: product.id).listing.name == "Raced", "the client still works")
        }
    }

    @MainActor @Test func aCancelledPageOrDetailIsNoFailure() async throws {
        try await TestMarket.withServer { market in
            let product = try await market.addProduct("Shown")
            let client = OpenMarketClient(baseURL: URL(string: "http://127.0.0.1:\(market.port)")!)
            let list = ProductListModel(
                client: client, preferences: UserDefaults(suiteName: "cancel-\(UUID().uuidString)")!)
            let detail = ProductDetailModel(productID: product.id, client: client)
            for _ in 0..<50 {
                let loading = Task { await list.loadFirstPage() }
                let showing = Task { await detail.load() }
                loading.cancel()
                showing.cancel()
                _ = await (loading.value, showing.value)
                if case .failed(let reason) = list.state { Issue.record("the list failed: \(reason)") }
                if case .failed(let reason) = detail.state { Issue.record("the detail failed: \(reason)") }
            }
            await list.loadFirstPage()
            #expect(list.state == .loaded && list.products.first?.name == "Shown")
            await detail.load()
            #expect(detail.product?.listing.name == "Shown")
        }
    }
}

import Foundation
import MarketTestSupport
import OpenMarketKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct ImageLoaderTests {
    /// The image URLs of a new product with `count` different pictures, and their sizes.
    static func pictures(_ market: TestMarket, count: Int) async throws -> [(url: URL, size: Int)] {
        let product = try await market.addProduct("Pictures", imageCount: count)
        return try await product.images.asyncMap { image in
            let response = try await market.send("GET", "/images/\(image.thumbnailKey)")
            return (URL(string: "http://127.0.0.1:\(market.port)/images/\(image.thumbnailKey)")!, response.body.count)
        }
    }

    @Test func concurrentRequestsForOnePictureMakeOneDownload() async throws {
        try await TestMarket.withServer { market in
            let url = try await Self.pictures(market, count: 1)[0].url
            let loader = ImageLoader()
            let results = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<12 { group.addTask { try await loader.image(at: url) } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(Set(results).count == 1)
            #expect(results[0].starts(with: [0xFF, 0xD8, 0xFF]))
            #expect(await loader.statistics.downloads == 1)
            _ = try await loader.image(at: url)
            #expect(await loader.statistics.downloads == 1)
            #expect(await loader.statistics.cacheHits >= 1)
        }
    }

    @Test func theLeastRecentlyUsedPictureLeavesFirst() async throws {
        try await TestMarket.withServer { market in
            let pictures = try await Self.pictures(market, count: 3)
            let (a, b, c) = (pictures[0], pictures[1], pictures[2])
            let loader = ImageLoader(capacityInBytes: a.size + b.size + c.size - 1)
            _ = try await loader.image(at: a.url)
            _ = try await loader.image(at: b.url)
            _ = try await loader.image(at: a.url)
            _ = try await loader.image(at: c.url)
            #expect(await loader.statistics.downloads == 3)
            #expect(await loader.cachedByteCount <= loader.capacityInBytes)
            _ = try await loader.image(at: a.url)
            #expect(await loader.statistics.downloads == 3, "a was used more recently than b")
            _ = try await loader.image(at: b.url)
            #expect(await loader.statistics.downloads == 4, "b had to go")
        }
    }

    @Test func aMissingPictureIsAnHTTPError() async throws {
        try await TestMarket.withServer { market in
            let loader = ImageLoader()
            let url = URL(string: "http://127.0.0.1:\(market.port)/images/\(String(repeating: "0", count: 64)).jpg")!
            do {
                _ = try await loader.image(at: url)
                Issue.record("a missing picture arrived")
            } catch let OpenMarketError.http(status, _, _) {
                #expect(status == 404)
            }
        }
    }

    @Test func anUnreachableMarketIsAnOpenMarketErrorNotARawURLError() async throws {
        let loader = ImageLoader()
        do {
            _ = try await loader.image(at: URL(string: "http://127.0.0.1:9/images/a.jpg")!)
            Issue.record("a closed port answered")
        } catch let error as OpenMarketError {
            #expect(error.kind == .unreachable)
        }
    }

    @Test func aDownloadNobodyWaitsForIsStoppedButAPrefetchGoesOn() async throws {
        let session = StalledConnection.session()
        let loader = ImageLoader(session: session)
        let url = URL(string: "http://stalled.invalid/images/a.jpg")!
        let started = StalledConnection.starts()
        let waiting = Task { try await loader.image(at: url) }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(await loader.statistics.cancelledDownloads == 1)

        await loader.prefetch([url])
        _ = await iterator.next()
        let impatient = Task { try await loader.image(at: url) }
        impatient.cancel()
        await #expect(throws: CancellationError.self) { try await impatient.value }
        #expect(await loader.statistics.cancelledDownloads == 1, "the prefetch goes on")
        #expect(await loader.statistics.downloads == 2)
    }
}

/// A connection that never answers: the one fault of this suite the real server cannot produce.
final class StalledConnection: URLProtocol {
    nonisolated(unsafe) private static var started: AsyncStream<Void>.Continuation?

    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StalledConnection.self]
        return URLSession(configuration: configuration)
    }

    /// Yields each time a request reaches the stalled connection.
    static func starts() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        started = continuation
        return stream
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() { Self.started?.yield() }
    override func stopLoading() {}
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

/// A server that answers 200 with bytes that are no JSON: a fault the real server cannot produce.
final class GarbageAnswer: URLProtocol {
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [GarbageAnswer.self]
        return URLSession(configuration: configuration)
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json"])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data([0x00, 0xFF, 0x7B, 0x22]))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches product pictures for lists, grids and carousels: from memory when it can (an LRU cache bounded in bytes),
/// one download per URL however many cells ask, stopped when no one waits any more, and prefetching of rows to come.
public actor ImageLoader {
    /// What the loader has done so far, for tests and for a debug screen.
    public struct Statistics: Sendable, Equatable {
        /// Downloads started.
        public var downloads = 0
        /// Pictures given from memory without a download.
        public var cacheHits = 0
        /// Downloads stopped because nobody waited for them any more.
        public var cancelledDownloads = 0
    }

    private struct Download {
        let number: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Data, any Error>] = [:]
        var prefetched = false
    }

    /// The most bytes of pictures kept in memory.
    public let capacityInBytes: Int
    /// What the loader has done so far.
    public private(set) var statistics = Statistics()
    /// The bytes of pictures kept in memory now.
    public private(set) var cachedByteCount = 0
    private let session: URLSession
    private var cache: [URL: (data: Data, lastUse: Int)] = [:]
    private var downloads: [URL: Download] = [:]
    private var counter = 0

    /// A loader keeping up to `capacityInBytes` of pictures in memory; make one per app, so every screen shares it.
    public init(capacityInBytes: Int = 64 * 1024 * 1024, session: URLSession = .shared) {
        self.capacityInBytes = capacityInBytes
        self.session = session
    }

    /// The picture's bytes. A cancelled caller stops waiting at once; the download stops too when
    /// it was the last one waiting and the picture was not prefetched.
    public func image(at url: URL) async throws -> Data {
        if let data = cached(url) { return data }
        try Task.checkCancellation()
        start(url)
        let waiter = next()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in downloads[url]?.waiters[waiter] = continuation }
        } onCancel: {
            Task { await self.stopWaiting(waiter, for: url) }
        }
    }

    /// Starts downloads whose pictures will be wanted soon; they finish even if no one asks yet.
    public func prefetch(_ urls: [URL]) {
        for url in urls where cache[url] == nil {
            start(url)
            downloads[url]?.prefetched = true
        }
    }

    private func next() -> Int {
        counter += 1
        return counter
    }

    private func cached(_ url: URL) -> Data? {
        guard let data = cache[url]?.data else { return nil }
        cache[url]?.lastUse = next()
        statistics.cacheHits += 1
        return data
    }

    private func start(_ url: URL) {
        guard downloads[url] == nil else { return }
        statistics.downloads += 1
        let number = next()
        downloads[url] = Download(number: number)
        let session = session
        downloads[url]?.task = Task {
            let result: Result<Data, any Error>
            do {
                let (data, response) = try await Transfer.data(for: URLRequest(url: url), in: session)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                result =
                    (200..<300).contains(status)
                    ? .success(data)
                    : .failure(OpenMarketError.http(status: status, message: "no picture at \(url)", field: nil))
            } catch let error as URLError where error.code != .cancelled {
                result = .failure(OpenMarketError(error))
            } catch {
                result = .failure(error)
            }
            finish(url, download: number, with: result)
        }
    }

    private func finish(_ url: URL, download number: Int, with result: Result<Data, any Error>) {
        guard let download = downloads[url], download.number == number else { return }
        downloads[url] = nil
        if case .success(let data) = result { store(data, for: url) }
        for waiter in download.waiters.values { waiter.resume(with: result) }
    }

    private func stopWaiting(_ waiter: Int, for url: URL) {
        guard var download = downloads[url], let continuation = download.waiters.removeValue(forKey: waiter) else {
            return
        }
        continuation.resume(throwing: CancellationError())
        if download.waiters.isEmpty, !download.prefetched {
            download.task?.cancel()
            downloads[url] = nil
            statistics.cancelledDownloads += 1
        } else {
            downloads[url] = download
        }
    }

    private func store(_ data: Data, for url: URL) {
        guard data.count <= capacityInBytes else { return }
        cache[url] = (data, next())
        cachedByteCount += data.count
        while cachedByteCount > capacityInBytes, let oldest = cache.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            cache[oldest.key] = nil
            cachedByteCount -= oldest.value.data.count
        }
    }
}

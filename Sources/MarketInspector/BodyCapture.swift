import Foundation
import NIOCore

/// The first bytes of a body as it streams past, kept for the inspector; the rest is only counted.
final class BodyCapture: @unchecked Sendable {
    static let keptBytes = 12 * 1024 * 1024

    private let lock = NSLock()
    private let limit: Int
    private var kept = Data()
    private var total = 0

    init(keeping limit: Int = keptBytes) {
        self.limit = limit
    }

    func append(_ buffer: ByteBuffer) {
        lock.withLock {
            total += buffer.readableBytes
            let room = limit - kept.count
            if room > 0 { kept.append(contentsOf: buffer.readableBytesView.prefix(room)) }
        }
    }

    var bytes: Data { lock.withLock { kept } }
    var count: Int { lock.withLock { total } }
}

/// Reads finished requests into records one after another, in the order they finished, off every
/// connection's path: a request of several megabytes takes a while to read. At most `backlog` wait;
/// beyond that a burst of uploads is not recorded rather than piled up in memory.
final class Recorder: Sendable {
    private let queue: AsyncStream<(Recording, BodyCapture, BodyCapture)>.Continuation

    init(backlog: Int = 32) {
        let (stream, queue) = AsyncStream.makeStream(
            of: (Recording, BodyCapture, BodyCapture).self, bufferingPolicy: .bufferingOldest(backlog))
        self.queue = queue
        Task {
            for await (record, request, answer) in stream { await record.save(request: request, answer: answer) }
        }
    }

    deinit { queue.finish() }

    func enqueue(_ record: Recording, request: BodyCapture, answer: BodyCapture) {
        if case .dropped = queue.yield((record, request, answer)) {
            record.logger.notice("the inspector skipped a request: it is still reading earlier ones")
        }
    }
}

extension Optional {
    /// `map` for an asynchronous transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

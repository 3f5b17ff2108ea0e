import Foundation
import NIOCore

/// The first bytes of a body as it streams past, kept for the inspector; the rest is only counted.
final class BodyCapture: @unchecked Sendable {
    static let keptBytes = 12 * 1024 * 1024

    private let lock = NSLock()
    private var kept = Data()
    private var total = 0

    func append(_ buffer: ByteBuffer) {
        lock.withLock {
            total += buffer.readableBytes
            let room = Self.keptBytes - kept.count
            if room > 0 { kept.append(contentsOf: buffer.readableBytesView.prefix(room)) }
        }
    }

    var bytes: Data { lock.withLock { kept } }
    var count: Int { lock.withLock { total } }
}

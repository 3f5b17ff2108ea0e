import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random bytes from the operating system, fetched 4 KB at a time: every new visitor gets a 32-byte form token,
/// and Swift's and swift-crypto's generators on Linux make a system call per 8 bytes.
public final class RandomBytes: Sendable {
    public static let shared = RandomBytes()

    private static let poolSize = 4096
    private let pool = Mutex<(bytes: [UInt8], used: Int)>(([UInt8](repeating: 0, count: poolSize), poolSize))

    /// `count` (at most 4096) random bytes, each handed out once.
    public func take(_ count: Int) -> [UInt8] {
        precondition(count <= Self.poolSize)
        return pool.withLock { pool in
            if pool.used + count > Self.poolSize {
                pool.bytes.withUnsafeMutableBytes { Self.fill($0) }
                pool.used = 0
            }
            defer { pool.used += count }
            return Array(pool.bytes[pool.used..<pool.used + count])
        }
    }

    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            // The kernel's generator, whole: Glibc's module leaves getrandom(2) out.
            let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            precondition(source >= 0, "cannot open /dev/urandom: \(errno)")
            defer { close(source) }
            var filled = 0
            while filled < buffer.count {
                let count = read(source, buffer.baseAddress! + filled, buffer.count - filled)
                if count > 0 { filled += count } else { precondition(errno == EINTR, "/dev/urandom: \(errno)") }
            }
        #else
            arc4random_buf(buffer.baseAddress!, buffer.count)
        #endif
    }
}

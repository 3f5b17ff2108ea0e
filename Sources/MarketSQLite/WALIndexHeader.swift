import Foundation

/// The header of a database's wal-index (its `-shm` file), which SQLite rewrites with every
/// commit, whichever connection or process makes it: "The WAL-Index Header" in
/// https://www.sqlite.org/walformat.html. Reading it is one small read of a file held in memory,
/// where reading the catalogue's version costs a read transaction; while the header stays the
/// same, nothing was committed, and the version read last still holds.
final class WALIndexHeader: Sendable {
    /// Read with `pread` rather than mapped: a mapping of a file SQLite may truncate could fault.
    private let descriptor: Int32

    /// Nil when the database has no wal-index (not in WAL mode).
    init?(databasePath: String) {
        descriptor = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// The header now: its 48 bytes, in the first six of eight words. Nil while it is not set up,
    /// or while a commit is writing it (SQLite writes it twice, one copy after the other, and a
    /// reader that finds the copies different must not trust either).
    func read() -> SIMD8<UInt64>? {
        let size = 48
        return withUnsafeTemporaryAllocation(byteCount: 2 * size, alignment: 8) { buffer -> SIMD8<UInt64>? in
            guard let base = buffer.baseAddress, pread(descriptor, base, 2 * size, 0) == 2 * size,
                memcmp(base, base + size, size) == 0,
                buffer[12] != 0  // isInit
            else { return nil }
            var header = SIMD8<UInt64>()
            withUnsafeMutableBytes(of: &header) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<size]))
            }
            return header
        }
    }
}

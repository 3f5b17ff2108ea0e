#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-file limit, which caps how many connections a server can hold.
public enum FileDescriptors {
    /// Files kept for the database, image files and logs beside the connections.
    static let reserve = 128

    /// Raises the soft limit to the hard one: Debian's default soft limit of 1,024 would otherwise
    /// cap a server at under a thousand clients.
    public static func raiseLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Connections that fit under the soft limit with the reserve kept.
    public static func connectionsAllowed() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 - reserve }
        return max(16, Int(min(limit.rlim_cur, 1 << 20)) - reserve)
    }
}

/// How the process's memory goes back to the system.
public enum Memory {
    /// Has every block of 256 KB or more (request bodies, decoded pictures) mapped on its own and
    /// unmapped when freed: glibc would otherwise raise that threshold after the first large free
    /// and keep a burst of uploads' memory in its heap for good. And keeps one heap per core:
    /// glibc's default of eight per core let each of the many threads a server runs (event
    /// loops, tasks, database readers, libvips) hold freed memory in a heap of its own. Measured
    /// with four 5-photo creates at once after a read load: peak 446–453 MB, then 220–243 MB,
    /// against 376–386 MB and 177–184 MB with a heap per core; reads as fast.
    public static func returnLargeBlocks() {
        #if canImport(Glibc)
            // mallopt is not in Swift's Glibc module; M_MMAP_THRESHOLD is -3 and M_ARENA_MAX -8
            // in <malloc.h>.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-3, 256 << 10)
            _ = mallopt(-8, Int32(max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #endif
    }
}

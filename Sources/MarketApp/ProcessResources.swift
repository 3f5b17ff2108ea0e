import Foundation

/// The process's open-file limit, which caps how many connections a server can hold.
public enum FileDescriptors {
    /// Files kept for the database, image files and logs beside the connections.
    static let reserve = 128

    #if canImport(Darwin)
        private static let openFiles = RLIMIT_NOFILE
        /// Darwin's setrlimit(2) refuses a soft limit for open files above OPEN_MAX, whatever the hard limit.
        private static let softest = rlim_t(OPEN_MAX)
    #else
        private static let openFiles = Int32(RLIMIT_NOFILE.rawValue)
        private static let softest = rlim_t.max
    #endif

    /// Raises the soft limit to the hard one: Debian's default, 1,024, would cap a server under a thousand clients.
    public static func raiseLimit() {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, softest)
        _ = setrlimit(openFiles, &limit)
    }

    /// Connections that fit under the soft limit with the reserve kept.
    public static func connectionsAllowed() -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return 1024 - reserve }
        return max(16, Int(min(limit.rlim_cur, 1 << 20)) - reserve)
    }
}

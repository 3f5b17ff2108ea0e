import Foundation

/// The process's open-file limit, which caps how many connections a server can hold.
public enum FileDescriptors {
    /// Files kept for the database, image files and logs beside the connections.
    static let reserve = 128

    /// Raises the soft limit to the hard one: Debian's default, 1,024, would cap a server under a thousand clients.
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

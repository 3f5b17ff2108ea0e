import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where phones on the same network reach this machine.
package enum LocalNetwork {
    /// This machine's IPv4 addresses on interfaces that are up, loopback left out, private
    /// networks (where a phone on the same Wi-Fi is) first.
    package static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                entry.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let size = socklen_t(MemoryLayout<sockaddr_in>.size)
            guard getnameinfo(address, size, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127."), !addresses.contains(text) { addresses.append(text) }
        }
        return addresses.filter(isPrivate) + addresses.filter { !isPrivate($0) }
    }

    static func isPrivate(_ address: String) -> Bool {
        let parts = address.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 4 else { return false }
        return parts[0] == 10 || (parts[0] == 172 && (16...31).contains(parts[1]))
            || (parts[0] == 192 && parts[1] == 168)
    }

    /// `origin` (`http://host:port`) as a phone on the same network reaches it: a loopback host becomes
    /// this machine's first network address, when it has one.
    package static func reachable(_ origin: String) -> String {
        guard let url = URL(string: origin), let host = url.host,
            host == "localhost" || host.hasPrefix("127.") || host == "::1", let address = addresses().first
        else { return origin }
        return "\(url.scheme ?? "http")://\(address)\(url.port.map { ":\($0)" } ?? "")"
    }
}

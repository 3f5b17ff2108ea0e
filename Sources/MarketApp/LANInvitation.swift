import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `serve --lan` tells the person at the machine: the address a phone on the same network
/// opens, as text and as a QR code, and the exception an iOS app needs for plain HTTP to it.
public enum LANInvitation {
    public static let transportSecurityException =
        "<key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>"

    public static func text(addresses: [String], port: Int) -> String {
        guard let first = addresses.first else {
            return "No network address was found besides this machine's own: join a Wi-Fi network, then start again."
        }
        let url = "http://\(first):\(port)"
        var lines = ["On the same Wi-Fi, a phone or an app reaches this market at \(url)"]
        lines += addresses.dropFirst().map { "(also http://\($0):\(port))" }
        if let code = QRCode(url) { lines += ["", code.terminalText, ""] }
        lines.append("An iOS app talks plain HTTP to it once its Info.plist allows local networking:")
        lines.append(transportSecurityException)
        return lines.joined(separator: "\n")
    }

    /// This machine's IPv4 addresses on interfaces that are up, loopback left out, private
    /// networks (where a phone on the same Wi-Fi is) first.
    public static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                entry.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard
                getnameinfo(
                    address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                    NI_NUMERICHOST) == 0
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
}

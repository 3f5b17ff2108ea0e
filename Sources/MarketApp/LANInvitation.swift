import MarketPages

/// What `serve --lan` tells the person at the machine: the address a phone on the same network
/// opens, as text and as a QR code, and the exception an iOS app needs for plain HTTP to it.
public enum LANInvitation {
    public static func text(addresses: [String], port: Int) -> String {
        guard let first = addresses.first else {
            return "No network address was found besides this machine's own: join a Wi-Fi network, then start again."
        }
        let url = "http://\(first):\(port)"
        var lines = ["On the same Wi-Fi, a phone or an app reaches this market at \(url)"]
        lines += addresses.dropFirst().map { "(also http://\($0):\(port))" }
        if let code = QRCode(url) { lines += ["", code.terminalText, ""] }
        lines.append("An iOS app talks plain HTTP to it once its Info.plist allows local networking:")
        lines.append("<key>NSAppTransportSecurity</key><dict><key>NSAllowsLocalNetworking</key><true/></dict>")
        return lines.joined(separator: "\n")
    }
}

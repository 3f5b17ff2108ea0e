import Foundation
import MarketModel

/// A team's own address: the market's address followed by `/teams/<vendor_id>`. An app that takes
/// it as its base URL has every request it sends, reads and pictures included, kept in that
/// vendor's inspector and given that vendor's rehearsed faults, whether or not it names the vendor.
public enum TeamAddress {
    public static let segment = "teams"

    public static func path(of vendorID: Int64) -> String { "/\(segment)/\(vendorID)" }

    /// The team address of `vendorID` on a market reached at `origin` (`http://host:port`).
    public static func url(of vendorID: Int64, on origin: String) -> String { origin + path(of: vendorID) }

    /// The vendor_id a path starting with a team address names, and the rest of the path (with
    /// its query), as the market's own address would take it; nil when the path names no team.
    public static func split(_ path: Substring) -> (vendorID: Int64, rest: Substring)? {
        let start = path.drop { $0 == "/" }
        guard start.count > segment.count + 1, start.prefix(segment.count).lowercased() == segment,
            start.dropFirst(segment.count).first == "/"
        else { return nil }
        let number = start.dropFirst(segment.count + 1)
        let digits = number.prefix { $0.isASCII && $0.isNumber }
        let rest = number.dropFirst(digits.count)
        guard let vendorID = Int64(digits), rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
        return (vendorID, rest)
    }
}

/// Ports of the teams' own, for apps that set a URL's path apart from its host and so drop a team address's path:
/// the team in seat N (`Vendor.teamSeat`, the order teams joined) is reached on `first + N - 1`, while that is `last`
/// or below.
public struct TeamPorts: Sendable, Equatable {
    public let ports: ClosedRange<Int>

    /// `8101-8140`, or one port; nil for anything else.
    public init?(_ text: String) {
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        guard (1...2).contains(bounds.count), let first = bounds[0], let last = bounds[bounds.count - 1],
            1 <= first, first <= last, last <= 65_535
        else { return nil }
        ports = first...last
    }

    private init(ports: ClosedRange<Int>) { self.ports = ports }

    public var text: String { ports.count == 1 ? "\(ports.lowerBound)" : "\(ports.lowerBound)-\(ports.upperBound)" }

    /// How many teams the range holds, in English: "1 team", "40 teams".
    public var teams: String { ports.count == 1 ? "1 team" : "\(ports.count) teams" }

    public func port(ofSeat seat: Int) -> Int? { seat >= 1 && seat <= ports.count ? ports.lowerBound + seat - 1 : nil }

    public func seat(atPort port: Int) -> Int? { ports.contains(port) ? port - ports.lowerBound + 1 : nil }

    /// `team`'s own address on the host in `origin` (`http://host:port`), or why it has none; nil for a vendor
    /// that is no team.
    public func address(of team: Vendor, on origin: String) -> TeamPort? {
        guard let seat = team.teamSeat else { return nil }
        guard let port = port(ofSeat: seat) else {
            let last = ports.lowerBound + seat - 1
            return last <= 65_535
                ? .rangeFull(self, widened: TeamPorts(ports: ports.lowerBound...last)) : .outOfPorts(self)
        }
        guard let url = URL(string: origin), let host = url.host else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return .url("\(url.scheme ?? "http")://\(bracketed):\(port)")
    }
}

/// A team's own port, as every place that shows a team's addresses shows it.
public enum TeamPort: Sendable, Equatable {
    case url(String)
    /// Every port of the range is an earlier team's: started with `widened`, the market gives this team one too.
    case rangeFull(TeamPorts, widened: TeamPorts)
    /// Past the last port there is: no range starting there holds this team.
    case outOfPorts(TeamPorts)

    public var url: String? { if case .url(let url) = self { url } else { nil } }

    /// The address, or "none: " and why, in English (the command's and the log's language).
    public var english: String { url ?? "none: " + (whyNone ?? "") }

    /// Why there is no port and how to give the team one, in English; nil when there is one.
    public var whyNone: String? {
        switch self {
        case .url: nil
        case .rangeFull(let ports, let widened):
            "--team-ports \(ports.text) holds \(ports.teams), all seated before this one; "
                + "start the market with --team-ports \(widened.text) to give it one"
        case .outOfPorts(let ports):
            "--team-ports \(ports.text) holds \(ports.teams), all seated before this one, and no port follows "
                + "65535; start the market with a range that starts lower"
        }
    }
}

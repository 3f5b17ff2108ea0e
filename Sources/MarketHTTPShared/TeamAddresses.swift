import MarketCore

/// The addresses a team's app reaches the market through as that team, on the host a person or a
/// request named: the market's address with `/teams/<vendor_id>`, and the team's own port when the
/// market listens on team ports.
package struct TeamAddresses: Sendable {
    package let ports: TeamPorts?

    package init(ports: TeamPorts?) {
        self.ports = ports
    }

    package func path(of vendorID: Int64, on origin: String) -> String {
        TeamAddress.url(of: vendorID, on: origin)
    }

    package func port(of vendorID: Int64, on origin: String) -> String? {
        ports?.url(of: vendorID, on: origin)
    }
}

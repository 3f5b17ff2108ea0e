import MarketCore
import MarketModel

/// Where a team's app reaches the market as that team, on the host a person or a request named: the market's
/// address with `/teams/<vendor_id>` (`TeamAddress.url`), and the team's own port when the market listens on them.
package struct TeamAddresses: Sendable {
    package let ports: TeamPorts?
    /// The market listens beyond this machine (`--lan`, `--host 0.0.0.0`), so that phones on the
    /// same network reach it at this machine's network address.
    package let listensOnNetwork: Bool

    package init(ports: TeamPorts?, listensOnNetwork: Bool) {
        (self.ports, self.listensOnNetwork) = (ports, listensOnNetwork)
    }

    /// `origin` as phones on the same network reach it, when the market listens for them.
    package func forPhones(_ origin: String) -> String { listensOnNetwork ? LocalNetwork.reachable(origin) : origin }

    /// `team`'s own port, or why it has none; nil without team ports or for a vendor that is no team.
    package func port(of team: Vendor, on origin: String) -> TeamPort? { ports?.address(of: team, on: origin) }
}

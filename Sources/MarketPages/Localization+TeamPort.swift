import MarketCore

extension Localization {
    /// Why a team has no port of its own and how to give it one; nil when it has one.
    package func whyNoPort(_ port: TeamPort) -> String? {
        switch port {
        case .url: nil
        case .rangeFull(let ports, let widened):
            self(
                "teamPort.rangeFull",
                ["ports": ports.text, "count": number(ports.ports.count), "widened": widened.text])
        case .outOfPorts(let ports):
            self("teamPort.outOfPorts", ["ports": ports.text, "count": number(ports.ports.count)])
        }
    }
}

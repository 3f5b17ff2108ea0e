import Foundation
import MarketCore
import MarketHTTPShared

#if canImport(Glibc)
    import Glibc
#endif

/// Where the market serving a data folder is reached, which `openmarket serve` writes into the folder while it runs,
/// so that the commands run beside it (`vendors add`, `vendors list`) print the team addresses apps really use.
public struct ServingAddress: Codable, Sendable, Equatable {
    /// The market's address as apps reach it: `http://192.168.0.10:8080`.
    public var origin: String
    /// `8101-8140`, as `serve --team-ports` was given.
    public var teamPorts: String?
    /// The server's process: the file of one that has ended says nothing.
    public var process: Int32

    static let fileName = "serving.json"

    /// `host` and `port` as the server listens on them; one listening beyond this machine is given at its network
    /// address, as phones reach it.
    public init(host: String, port: Int, teamPorts: TeamPorts?, listensOnNetwork: Bool) {
        let reachable = listensOnNetwork ? LocalNetwork.addresses().first ?? host : host
        origin = "http://\(reachable.contains(":") ? "[\(reachable)]" : reachable):\(port)"
        self.teamPorts = teamPorts.map { "\($0.ports.lowerBound)-\($0.ports.upperBound)" }
        process = getpid()
    }

    public func write(to folder: URL) throws {
        try JSONEncoder().encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// What the market serving `folder` wrote, while its process runs.
    public static func read(from folder: URL) -> ServingAddress? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)),
            let address = try? JSONDecoder().decode(ServingAddress.self, from: data),
            kill(address.process, 0) == 0 || errno == EPERM
        else { return nil }
        return address
    }

    /// Removes the file, unless another server has written its own since.
    public static func remove(from folder: URL) {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)),
            (try? JSONDecoder().decode(ServingAddress.self, from: data))?.process == getpid()
        else { return }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(fileName))
    }
}

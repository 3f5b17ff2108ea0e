/// Who sent a request, as wrong secrets are counted: the client's address, and the team whose team address the
/// request came through, if any. A class behind one address (one NAT) is one address of many teams.
public struct RequestSender: Sendable, Equatable {
    public var address: String
    public var team: Int64?

    public init(address: String, team: Int64? = nil) {
        self.address = address
        self.team = team
    }
}

import Foundation

/// Someone who sells: identified by a UUID string and proven by a secret.
public struct Vendor: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var identifier: String
    public var name: String
    public var createdAt: Date
    /// Where a team of a class stands in the order teams joined, from 1, or nil for a vendor that is no team. Teams are
    /// registered by their teacher (or by open registration), or an app used their team address. The class board
    /// shows teams; a team is throttled for its own wrong secrets, not its class's; its seat gives its own port.
    public var teamSeat: Int?

    public init(id: Int64, identifier: String, name: String, createdAt: Date, teamSeat: Int? = nil) {
        self.id = id
        self.identifier = identifier
        self.name = name
        self.createdAt = createdAt
        self.teamSeat = teamSeat
    }

    public var isTeam: Bool { teamSeat != nil }

    public var summary: VendorSummary { VendorSummary(id: id, name: name, createdAt: createdAt) }
}

/// What a product tells about its vendor.
public struct VendorSummary: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var createdAt: Date

    public init(id: Int64, name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

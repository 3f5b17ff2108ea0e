import Foundation

/// Someone who sells: identified by a UUID string and proven by a secret.
public struct Vendor: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var identifier: String
    public var name: String
    public var createdAt: Date
    /// A team of a class: registered by its teacher (or by open registration), or whose team address an app has
    /// used. The class board shows teams, and a team is throttled for its own wrong secrets, not its class's.
    public var isTeam: Bool

    public init(id: Int64, identifier: String, name: String, createdAt: Date, isTeam: Bool = false) {
        self.id = id
        self.identifier = identifier
        self.name = name
        self.createdAt = createdAt
        self.isTeam = isTeam
    }

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

/// How far a long piece of work is (a migration, a snapshot, the demo's fill), for a command to show as it goes.
public struct WorkProgress: Sendable, Equatable {
    /// What is being done.
    public enum Part: String, Sendable {
        case vendors, pictures, products
        case database = "the database"
        case statistics = "the search index's statistics"
        case demoProducts = "demo products"
    }

    public var part: Part
    public var done: Int
    /// Nil when not known ahead.
    public var total: Int?

    public init(_ part: Part, done: Int, of total: Int?) {
        self.part = part
        self.done = done
        self.total = total
    }
}

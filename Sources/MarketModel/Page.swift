/// The order a list comes in: the 2022 API lists the newest first, the 2021 API the oldest.
public enum ListOrder: Sendable, Equatable { case newestFirst, oldestFirst }

/// Which slice of a list is wanted. Page numbers start at 1.
public struct PageRequest: Sendable, Equatable {
    public static let maximumItemsPerPage = 500
    /// Far beyond any catalogue, and small enough that an offset never overflows.
    public static let maximumPageNumber = 1_000_000_000

    public var number: Int
    public var itemsPerPage: Int
    public var order: ListOrder
    /// A cursor: the page holds the products after this one in the list's order, so a client scrolling through a
    /// changing market neither skips nor repeats one. `number` then only names the page.
    public var after: Int64?

    public init(number: Int, itemsPerPage: Int, order: ListOrder = .newestFirst, after: Int64? = nil) {
        self.number = number
        self.itemsPerPage = itemsPerPage
        self.order = order
        self.after = after
    }

    public var offset: Int { after == nil ? (number - 1) * itemsPerPage : 0 }

    public func validated() throws(ValidationError) -> PageRequest {
        guard number >= 1 else { throw ValidationError(field: .pageNumber, rule: .atLeastOne) }
        guard number <= Self.maximumPageNumber else {
            throw ValidationError(field: .pageNumber, rule: .between(1, Self.maximumPageNumber))
        }
        guard (1...Self.maximumItemsPerPage).contains(itemsPerPage) else {
            throw ValidationError(field: .itemsPerPage, rule: .between(1, Self.maximumItemsPerPage))
        }
        return self
    }
}

/// One page of a list, with what a client needs to page further.
public struct Page<Item: Sendable>: Sendable {
    public var request: PageRequest
    public var totalCount: Int
    public var items: [Item]

    public init(request: PageRequest, totalCount: Int, items: [Item]) {
        self.request = request
        self.totalCount = totalCount
        self.items = items
    }

    public var lastPage: Int { (totalCount + request.itemsPerPage - 1) / request.itemsPerPage }
    public var hasNext: Bool { request.number < lastPage }
    public var hasPrevious: Bool { request.number > 1 }
}

import Foundation
import MarketCore
import MarketHTTPShared
import MarketPages

/// Which of a vendor's kept requests the inspector lists, as its address says (`refused`, `route`, `page`), so
/// that older requests and a burst's broken ones stay within reach.
struct InspectorChoice {
    static let perPage = 50

    let refusedOnly: Bool
    let route: String?
    /// Every route among the kept requests, in the order first seen.
    let routes: [String]
    let number: Int

    init(_ query: [String: String], routes kept: [String]) {
        var seen = Set<String>()
        routes = kept.filter { seen.insert($0).inserted }
        refusedOnly = query["refused"] == "1"
        route = query["route"].flatMap { seen.contains($0) ? $0 : nil }
        number = max(Int(query["page"] ?? "") ?? 1, 1)
    }

    /// A request's method and path as the router takes it, without its team address or empty segments and with
    /// placeholders for numbers, secrets and picture names: `PATCH /api/products/{id}`, `GET /images/{name}`.
    static func route(of request: InspectedRequest) -> String {
        var path = request.path.split(separator: "?", maxSplits: 1).first ?? request.path[...]
        if let (_, rest) = TeamAddress.split(path) { path = rest }
        let segments = path.split(separator: "/")
        let named = segments.enumerated().map { index, segment in
            if segment.allSatisfy(\.isNumber) { return "{id}" }
            if segment.contains("•" as Character) { return "{secret}" }
            return index == 1 && segments[0].lowercased() == "images" ? "{name}" : String(segment)
        }
        return request.method + " /" + named.joined(separator: "/")
    }

    func shows(_ request: InspectedRequest) -> Bool {
        (!refusedOnly || request.refusal != nil) && (route == nil || Self.route(of: request) == route)
    }

    /// The page asked for, within those there are, and the requests it holds.
    func page(of count: Int) -> (number: Int, last: Int, range: Range<Int>) {
        let last = max((count + Self.perPage - 1) / Self.perPage, 1)
        let number = min(self.number, last)
        let start = (number - 1) * Self.perPage
        return (number, last, start..<min(start + Self.perPage, count))
    }

    /// The address of page `number` of this choice, or of its live events after the record `after`.
    func address(page number: Int = 1, liveAfter after: Int64? = nil) -> String {
        var components = URLComponents()
        components.path = after == nil ? "/inspector" : "/inspector/live"
        var items: [URLQueryItem] = []
        if let after { items.append(URLQueryItem(name: "after", value: String(after))) }
        if refusedOnly { items.append(URLQueryItem(name: "refused", value: "1")) }
        if let route { items.append(URLQueryItem(name: "route", value: route)) }
        if number > 1 { items.append(URLQueryItem(name: "page", value: String(number))) }
        components.queryItems = items.isEmpty ? nil : items
        return components.string ?? "/inspector"
    }

    /// The filters, the pages around this one and, on the first, where its newest requests come
    /// live from (after `newest`, the newest record kept now).
    func context(page: (number: Int, last: Int, range: Range<Int>), shown: Int, newest: Int64?, strings: Localization)
        -> PageContent
    {
        let numbers = [
            "from": String(page.range.lowerBound + 1), "to": String(page.range.upperBound), "total": String(shown),
        ]
        var content: PageContent = [
            "refusedOnly": refusedOnly,
            "routes": routes.map { ["value": $0, "selected": $0 == route] },
            "showing": shown == 0 ? nil : strings("inspector_showing", numbers),
            "previousPage": page.number > 1 ? address(page: page.number - 1) : nil,
            "nextPage": page.number < page.last ? address(page: page.number + 1) : nil,
            "live": page.number == 1 ? address(liveAfter: newest ?? 0) : nil,
        ]
        for (name, value) in numbers { content[name] = value }
        return content
    }
}

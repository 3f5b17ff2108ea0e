import Hummingbird
import MarketCore
import MarketHTTPShared

/// Takes a team address off each request's path before the router sees it, as a proxy that mounts
/// an application under a path does: `/teams/82/api/products` is routed as `/api/products`, with
/// the vendor_id in the context (for the inspector and the faults) and `X-Forwarded-Prefix:
/// /teams/82` in the head (for the picture URLs in the answer, and the response cache's key). A
/// request to a team's own port (the port its Host names) is that team's as it is. With
/// `plainAddressTeam`, the market's own address is that vendor's too, for what apps ask.
struct TeamAddressResponder<Router: HTTPResponder<MarketRequestContext>>: HTTPResponder {
    let router: Router
    let teamPorts: TeamPorts?
    let plainAddressTeam: Int64?

    func respond(to request: Request, context: MarketRequestContext) async throws -> Response {
        var context = context
        guard let path = request.head.path, let (vendorID, rest) = TeamAddress.split(path[...]) else {
            context.team = portTeam(of: request) ?? plainAddressTeam(of: request)
            guard request.headers[.forwardedPrefix] != nil else {
                return try await router.respond(to: request, context: context)
            }
            var head = request.head
            head.headerFields[.forwardedPrefix] = nil
            return try await router.respond(to: Request(head: head, body: request.body), context: context)
        }
        var head = request.head
        head.path = rest.first == "/" ? String(rest) : "/" + rest
        head.headerFields[.forwardedPrefix] = TeamAddress.path(of: vendorID)
        context.team = vendorID
        return try await router.respond(to: Request(head: head, body: request.body), context: context)
    }

    /// The team whose own port the request's host names (as a proxy in front forwarded it).
    private func portTeam(of request: Request) -> Int64? {
        guard let teamPorts, let host = request.headers[.forwardedHost] ?? request.head.authority,
            let colon = host.lastIndex(of: ":"), let port = Int(host[host.index(after: colon)...])
        else { return nil }
        return teamPorts.vendorID(atPort: port)
    }

    private func plainAddressTeam(of request: Request) -> Int64? {
        AppPaths.isAppRequest(AppPaths.firstSegment(of: request.uri.path)) ? plainAddressTeam : nil
    }
}

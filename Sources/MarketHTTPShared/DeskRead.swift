import HTTPTypes
import NIOCore

/// A catalogue read the front desk may answer itself, on the connection's thread, when it has not
/// kept the answer: the body comes from the function the route makes it with, from what the store
/// reads at hand, and the head from the router's answer to a request like it (same route, host,
/// language, cookies and compression), with the body's own length and tag. Only for routes whose
/// answers differ in nothing but their bodies.
package struct DeskRead: Sendable {
    /// The route as the router names it, its parameters in braces: `/api/products/{id}`.
    package let route: String
    /// The answer's body for a request to `route` with these parameters (in order), or nil when
    /// only the route may answer it: nothing at hand, a refusal, or anything out of the ordinary.
    package let body: @Sendable (HTTPRequest, [Substring]) -> ByteBuffer?

    package init(route: String, body: @escaping @Sendable (HTTPRequest, [Substring]) -> ByteBuffer?) {
        self.route = route
        self.body = body
    }
}

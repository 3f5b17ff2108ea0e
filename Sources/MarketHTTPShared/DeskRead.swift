import HTTPTypes
import NIOCore

/// A catalogue read the front desk may answer itself, on the connection's thread, when it has not
/// kept the answer: the body comes from the function the route makes it with, from what the store
/// reads (at once when it can, SQLite; else once the read returns, PostgreSQL), and the head from
/// the router's answer to a request like it (same route, host, language, cookies and
/// compression), with the body's own length and tag. Only for routes whose answers differ in
/// nothing but their bodies.
package struct DeskRead: Sendable {
    /// What the desk can do for one request.
    package enum Made: Sendable {
        case body(ByteBuffer)
        /// The read would wait (for a server, or a free connection): `start` reads and, once it
        /// returns, makes the body on the loop it is given and hands it over there, or nil.
        case later(_ start: @Sendable (any EventLoop, @escaping @Sendable (ByteBuffer?) -> Void) -> Void)
        /// Only the route may answer: a refusal, or anything out of the ordinary.
        case routerOnly
    }

    /// The route as the router names it, its parameters in braces: `/api/products/{id}`.
    package let route: String
    /// The answer's body for a request to `route` with these parameters (in order).
    package let make: @Sendable (HTTPRequest, [Substring]) -> Made

    /// A read in three steps: what the request asks for (nil: only the route may answer), the
    /// store's answer at once or later (nil at once: ask later; nil later: only the route may
    /// answer), and the body made of it, as the route makes it.
    package init<Query: Sendable, Value: Sendable>(
        route: String, query: @escaping @Sendable (HTTPRequest, [Substring]) -> Query?,
        atHand: @escaping @Sendable (Query) -> Value?,
        later: @escaping @Sendable (Query, any EventLoop, @escaping @Sendable (Value?) -> Void) -> Void,
        body: @escaping @Sendable (Value, Query, HTTPRequest) -> ByteBuffer?
    ) {
        self.route = route
        make = { head, parameters in
            guard let query = query(head, parameters) else { return .routerOnly }
            guard let value = atHand(query) else {
                return .later { loop, deliver in
                    later(query, loop) { value in
                        // On the connection's own loop, not the thread the read returned on: one read
                        // answers many requests, whose bodies would otherwise be made one after
                        // another on that thread while the next read waits for the last of them.
                        loop.execute { deliver(value.flatMap { body($0, query, head) }) }
                    }
                }
            }
            return body(value, query, head).map(Made.body) ?? .routerOnly
        }
    }

    /// A later read made in a task, for reads the store makes in tasks only; on the connection's
    /// loop, where its answer is made and sent.
    package static func inTask<Query: Sendable, Value: Sendable>(
        _ read: @escaping @Sendable (Query) async -> Value?
    ) -> @Sendable (Query, any EventLoop, @escaping @Sendable (Value?) -> Void) -> Void {
        { query, loop, deliver in Task(executorPreference: LoopExecutor.on(loop)) { deliver(await read(query)) } }
    }
}

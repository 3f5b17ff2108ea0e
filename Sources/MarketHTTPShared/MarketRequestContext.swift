import HTTPTypes
import Hummingbird
import MarketCore
import NIOCore

/// Hummingbird's basic context plus the address of the peer that sent the request, and its
/// connection, which a rehearsed failure may drop.
public struct MarketRequestContext: ConnectionRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    package let connection: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connection = source.channel
    }
}

/// A context that knows the connection its request came on.
package protocol ConnectionRequestContext: RequestContext {
    var connection: any Channel { get }
}

/// Tells the service which client it serves, for throttling wrong secrets per client. Behind a
/// proxy on this machine (the peer is a loopback address), the client is the address that proxy
/// appended last to `X-Forwarded-For`; earlier entries are the client's own word and count for nothing.
package struct ClientAddressMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await MarketClient.$address.withValue(Self.client(of: request, peer: context.remoteAddress)) {
            try await next(request, context)
        }
    }

    package static func client(of request: Request, peer: SocketAddress?) -> String? {
        let peerAddress = peer?.ipAddress
        guard let peerAddress, peerAddress == "127.0.0.1" || peerAddress == "::1",
            let forwarded = request.headers[values: .forwardedFor].last?.split(separator: ",").last
        else { return peerAddress }
        let client = forwarded.trimmingCharacters(in: .whitespaces)
        return client.isEmpty ? peerAddress : client
    }
}

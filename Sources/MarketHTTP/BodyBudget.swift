import HTTPTypes
import Hummingbird
import MarketCore
import MarketHTTPShared
import Synchronization

/// How many bytes of request bodies the server holds in memory at once, across every request.
/// A request declares its size in its head; what does not fit now is refused with 503 and
/// Retry-After before a byte of it is read, instead of piling up uploads until memory runs out.
public final class BodyBudget: Sendable {
    public let limit: Int
    private let held = Mutex(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes reserved by requests being received or handled now.
    public var inFlight: Int { held.withLock { $0 } }

    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    func release(_ bytes: Int) {
        held.withLock { $0 -= bytes }
    }
}

struct BodyBudgetMiddleware<Context: RequestContext>: RouterMiddleware {
    let budget: BodyBudget

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let bytes = Self.bytesToHold(request)
        guard bytes > 0 else { return try await next(request, context) }
        guard budget.reserve(bytes) else {
            throw MarketError(
                .unavailable, "the market is receiving too many uploads just now; try again in a moment",
                retryAfter: 2)
        }
        defer { budget.release(bytes) }
        return try await next(request, context)
    }

    /// What the body will take at most: its declared length, or the largest body the market reads
    /// when it comes in chunks of unknown total. A body over that limit is refused by its length
    /// alone and never read, so it holds nothing.
    static func bytesToHold(_ request: Request) -> Int {
        let maximum = Request.maximumAPIBodyBytes
        if let length = request.declaredLength { return length <= maximum ? length : 0 }
        return request.headers[.transferEncoding] == nil ? 0 : maximum
    }
}

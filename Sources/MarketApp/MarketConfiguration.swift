import Foundation
import Logging
import MarketAPIv2
import MarketCore
import MarketHTTP

/// What decides how a market is put together: where its data and session key come from, and `openmarket serve`'s flags.
public struct MarketConfiguration: Sendable {
    public enum Storage: Sendable, Equatable {
        /// SQLite (`market.sqlite`), the image files (`images/`) and `session.key` in one folder.
        case folder(URL)
        /// Everything in one PostgreSQL database, shared by every server given its URL.
        case postgres(url: String)
    }

    public var storage: Storage
    /// A key given from outside (OPENMARKET_SESSION_KEY); otherwise the market's own.
    public var sessionKey: SessionKey?
    public var openRegistration = false
    public var flavor: V2Flavor = .marketTraining
    /// The ports teams' apps reach the market on as their team, if any.
    public var teamPorts: TeamPorts?
    /// The market listens on `teamPorts` itself; when a proxy in front does (nginx with TLS), it only reads
    /// which of them each request's host names.
    public var listensOnTeamPorts = true
    /// The server listens beyond this machine, so that phones on its network reach it.
    public var listensOnNetwork = false
    /// What the market logs: every request at `.info`.
    public var logLevel: Logger.Level = .info
    /// bcrypt's cost for new secrets; tests lower it.
    public var secretCost = SecretHasher.defaultCost
    /// How many wrong secrets one address may send before it waits, and the first wait.
    public var secretThrottle = SecretThrottle()
    /// Image bytes each server keeps in memory, read from its folder or its database.
    public var imageCacheBytes = 64 << 20
    /// Bytes of answers (lists, details, pages) each server keeps to give again until the catalogue changes.
    public var responseCacheBytes = 64 << 20
    /// Bytes of finished requests each server holds while its inspector writes them down; beyond, a request is
    /// counted as not kept, and its vendor's inspector says how many.
    public var inspectorBacklogBytes = 64 << 20
    /// How often unused image blobs are looked for, and how long a blob must have gone unused.
    public var sweepInterval: Duration = .seconds(600)
    public var sweepGrace: Duration = .seconds(600)
    /// How long a connection may go without sending a whole request head, when it opens or after
    /// an answer, before it is closed: a slow head and an idle keep-alive connection alike.
    public var connectionIdleTimeout: Duration = .seconds(30)
    /// Connections one server keeps open at most; one more is answered 503 and closed.
    public var maximumConnections = FileDescriptors.connectionsAllowed()
    /// Bytes of request bodies one server holds at once; an upload that does not fit now is
    /// answered 503 with Retry-After. Four of the largest bodies the market takes.
    public var bodyBytesInFlight = 4 * (5 * 10 + 4) << 20
    /// How long a request waits for the database before it is answered 503.
    public var databaseDeadline: Duration = .seconds(5)
    /// The time the market's rules go by (sessions, waits after wrong secrets); tests move it on.
    public var clock: @Sendable () -> Date = Date.init

    public init(storage: Storage) { self.storage = storage }
}

import ArgumentParser
import Foundation
import Logging
import MarketAPIv2
import MarketApp
import MarketCore
import MarketDemo
import MarketHTTP
import MarketHTTPShared
import MarketModel
import ServiceLifecycle

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the market's HTTP server.",
        example: "# A class's market, printing the address phones open:",
        "openmarket serve --demo --lan",
        "# One of several servers sharing PostgreSQL:",
        "export OPENMARKET_DATABASE=postgres://openmarket@127.0.0.1/openmarket",
        "openmarket serve --port 8081")

    @Option(help: "Address to listen on (OPENMARKET_HOST).")
    var host: String = Environment.value("OPENMARKET_HOST", default: "127.0.0.1")

    @Flag(
        help: """
            Listen on every interface and print the address (and a QR code) that a phone on the same \
            network opens, with the Info.plist exception an iOS app needs for plain HTTP.
            """)
    var lan = false

    @Option(help: "Port to listen on (OPENMARKET_PORT).")
    var port: Int = Environment.value("OPENMARKET_PORT", default: 8080)

    @OptionGroup var storage: MarketOptions

    @Flag(help: "Fill an empty market with a demo catalogue (OPENMARKET_DEMO).")
    var demo: Bool = Environment.flag("OPENMARKET_DEMO")

    @Option(
        help: """
            Make the market's own address this vendor's team address too (its vendor_id, identifier or \
            name), for a learner alone: every request of their app is then in that vendor's inspector \
            (OPENMARKET_TEAM).
            """)
    var team: String?

    @Option(
        help: ArgumentHelp(
            "How 2022 API answers look when the Host is neither of that API's hosts (OPENMARKET_V2_FLAVOR).",
            valueName: "market-training|openmarket"))
    var v2Flavor: V2Flavor = Environment.value("OPENMARKET_V2_FLAVOR", default: .marketTraining)

    @OptionGroup var teamPorts: TeamPortsOption

    @Flag(
        help: """
            The team ports are a proxy's in front (nginx with TLS listens on them and passes each request's \
            Host on): take requests that name one as that team's, without listening on them \
            (OPENMARKET_TEAM_PORTS_ON_PROXY).
            """)
    var teamPortsOnProxy: Bool = Environment.flag("OPENMARKET_TEAM_PORTS_ON_PROXY")

    @Flag(
        help: """
            Let an unknown identifier that comes with a secret become a vendor on first use, for classrooms \
            (OPENMARKET_OPEN_REGISTRATION). Anyone can then sell: never on a public market.
            """)
    var openRegistration: Bool = Environment.flag("OPENMARKET_OPEN_REGISTRATION")

    @Option(help: "trace, debug, info, notice, warning, error or critical (OPENMARKET_LOG_LEVEL).")
    var logLevel: Logger.Level = Environment.value("OPENMARKET_LOG_LEVEL", default: .info)

    @Option(help: "text, or json for one JSON object per line (OPENMARKET_LOG_FORMAT).")
    var logFormat: LogFormat = Environment.value("OPENMARKET_LOG_FORMAT", default: .text)

    @Option(
        help: """
            Connections kept open at most; one more is answered 503. 0: the open-file limit less 128 \
            (OPENMARKET_MAX_CONNECTIONS).
            """)
    var maxConnections: Int = Environment.value("OPENMARKET_MAX_CONNECTIONS", default: 0)

    @Option(
        help: """
            Wrong secrets one client address may send before it waits; a classroom behind one address \
            shares it (OPENMARKET_GUESSES_PER_ADDRESS).
            """)
    var guessesPerAddress: Int = Environment.value("OPENMARKET_GUESSES_PER_ADDRESS", default: 20)

    @Option(
        help: """
            Seconds the first wait lasts once that allowance is spent; each further wrong secret doubles \
            it, up to 15 minutes (OPENMARKET_GUESS_WAIT).
            """)
    var guessWait: Int = Environment.value("OPENMARKET_GUESS_WAIT", default: 15)

    func validate() throws {
        guard guessesPerAddress >= 1 else { throw ValidationError("--guesses-per-address must be 1 or more") }
        guard (1...900).contains(guessWait) else { throw ValidationError("--guess-wait must be from 1 to 900 seconds") }
    }

    func run() async throws {
        LoggingSystem.bootstrap { [logFormat] in ServeLogHandler(label: $0, format: logFormat) }
        defer { logFormat.output.flush() }
        FileDescriptors.raiseLimit()
        MarketMetrics.bootstrap()
        var configuration = try storage.configuration()
        configuration.openRegistration = openRegistration
        configuration.flavor = v2Flavor
        configuration.teamPorts = try teamPorts.ports()
        configuration.listensOnTeamPorts = !teamPortsOnProxy
        if teamPortsOnProxy && configuration.teamPorts == nil {
            throw ValidationError("--team-ports-on-proxy needs --team-ports, the ports the proxy listens on")
        }
        let host = lan && host == "127.0.0.1" ? "0.0.0.0" : host
        configuration.listensOnNetwork = !["127.0.0.1", "localhost", "::1"].contains(host)
        if let ports = configuration.teamPorts?.ports, ports.contains(port), !teamPortsOnProxy {
            throw ValidationError("--port \(port) is one of --team-ports; give the market a port of its own")
        }
        configuration.logLevel = logLevel
        configuration.secretThrottle = SecretThrottle(perAddress: guessesPerAddress, firstWait: .seconds(guessWait))
        if maxConnections > 0 { configuration.maximumConnections = maxConnections }
        let market = try await CommandFailure.catching { try await Market.open(configuration) }
        let (service, logger) = (market.service, market.logger)
        if openRegistration { logger.warning("open registration is on: any identifier with a secret becomes a vendor") }
        try await market.run {
            if demo {
                logger.info("filling the market with demo products; this takes a few seconds the first time")
                let progress = CommandProgress.onStandardError(quiet: false)
                let added = try await DemoCatalogue.fill(service, progress: progress.report)
                progress.finish()
                logger.info(
                    added > 0 ? "added \(added) demo products" : "the market has products already; no demo added")
                for vendor in DemoCatalogue.vendors {
                    logger.info("demo vendor \(vendor.name): identifier \(vendor.identifier), secret \(vendor.secret)")
                }
            }
            var plainAddressTeam: Vendor?
            if let team = team ?? Environment.value("OPENMARKET_TEAM") {
                plainAddressTeam = try await market.vendor(named: team)
            }
            let folder: URL? = if case .folder(let folder) = configuration.storage { folder } else { nil }
            let applications = try market.applications(host: host, port: port, plainAddressTeam: plainAddressTeam) {
                [plainAddressTeam, lan = lan, teamPorts = configuration.teamPorts, configuration, service] port in
                logger.info("Open Market is open at http://\(host):\(port)  (Ctrl-C closes it)")
                if let folder {
                    let address = ServingAddress(
                        host: host, port: port, teamPorts: teamPorts,
                        listensOnNetwork: configuration.listensOnNetwork)
                    do { try address.write(to: folder) } catch {
                        logger.warning("could not note the market's address in \(folder.path): \(error)")
                    }
                }
                if let teamPorts {
                    let whose = configuration.listensOnTeamPorts ? "open" : "the proxy's in front"
                    logger.info(
                        "the teams' own ports are \(whose), one a team in the order they joined: \(teamPorts.text)")
                    await Self.warnOfTeamsWithoutPorts(teamPorts, in: service, logger: logger)
                }
                if let team = plainAddressTeam {
                    logger.info(
                        "an app's requests to this address are \(team.name)'s: http://\(host):\(port)/inspector")
                }
                if lan {
                    // To the terminal as it is, not as a log line, and at once even when stdout is a pipe.
                    LogOutput.standardOutput.write(
                        LANInvitation.text(addresses: LocalNetwork.addresses(), port: port) + "\n")
                }
            }
            let services = ServiceGroup(
                configuration: .init(
                    services: applications + [ShutdownNotice(logger: logger)] + market.backgroundWork,
                    gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            defer { folder.map(ServingAddress.remove) }
            try await services.run()
        }
        logger.info("Open Market is closed")
    }
}

extension Serve {
    /// Says at once when the class has outgrown `--team-ports`, and the range that would seat every team.
    static func warnOfTeamsWithoutPorts(_ teamPorts: TeamPorts, in service: MarketService, logger: Logger) async {
        let teams =
            (try? await service.vendors().filter(\.isTeam).sorted { ($0.teamSeat ?? 0) < ($1.teamSeat ?? 0) }) ?? []
        let ports = teams.compactMap { teamPorts.address(of: $0, on: "http://localhost") }
        if let missing = Vendors.withoutPorts(ports) { logger.warning("\(missing)") }
    }
}

/// Logs when a graceful shutdown begins: from then on no new connection is taken, and those in flight finish.
struct ShutdownNotice: Service {
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        logger.info("shutting down: finishing the requests in flight")
    }
}

extension V2Flavor: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}

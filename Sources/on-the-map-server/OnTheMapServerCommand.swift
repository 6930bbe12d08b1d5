import ArgumentParser
import Foundation
import Logging
import OnTheMapServer
import ServiceLifecycle

@main
struct OnTheMapServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on-the-map-server",
        abstract: "A self-hostable, Udacity-compatible On the Map server.",
        subcommands: [Serve.self, User.self, Backup.self],
        defaultSubcommand: Serve.self)
}

/// Flags every command shares: where the data is and how much to log.
struct StorageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A SQLite file path (created on first start) or a postgres:// URL. "
                               + "Env: ON_THE_MAP_SERVER_DATABASE. Default: on-the-map.sqlite", valueName: "path|url"))
    var database: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical. Env: ON_THE_MAP_SERVER_LOG_LEVEL. Default: info")
    var logLevel: String?

    func location() throws -> DatabaseLocation {
        let text = database ?? environment("DATABASE") ?? "on-the-map.sqlite"
        do {
            return try DatabaseLocation(parsing: text)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func logger() throws -> Logger {
        let levelName = logLevel ?? environment("LOG_LEVEL") ?? "info"
        guard let level = Logger.Level(rawValue: levelName) else {
            throw ValidationError("Unknown log level \(levelName): use trace, debug, info, notice, warning or error.")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "on-the-map-server")
        logger.logLevel = level
        return logger
    }
}

/// `ON_THE_MAP_SERVER_<name>` from the environment, if set and not empty.
func environment(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment["ON_THE_MAP_SERVER_\(name)"], !value.isEmpty else {
        return nil
    }
    return value
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the API and the sign-up page (the default).")

    @OptionGroup var storage: StorageOptions

    @Option(help: "Address to listen on. Env: ON_THE_MAP_SERVER_HOST. Default: 127.0.0.1 (put a TLS proxy in front)")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one. Env: ON_THE_MAP_SERVER_PORT. Default: 8080")
    var port: Int?

    @Option(help: ArgumentHelp("Port of the Prometheus /metrics listener, kept apart from the API's port; off turns it "
                               + "off. Env: ON_THE_MAP_SERVER_METRICS_PORT. Default: 9464", valueName: "port|off"))
    var metricsPort: String?

    @Option(help: "Address of the /metrics listener. Env: ON_THE_MAP_SERVER_METRICS_HOST. Default: 127.0.0.1")
    var metricsHost: String?

    @Flag(help: "Let anyone post or change any location without a session, as Udacity's API did (old clients).")
    var allowAnonymousWrites = false

    @Flag(help: "Mark cookies Secure: set it when clients reach the server over HTTPS through a proxy.")
    var secureCookies = false

    @Flag(help: "Take the client's address from X-Real-IP (set by your reverse proxy) for rate limits.")
    var trustProxyHeaders = false

    @Flag(help: "Turn off the sign-up page: accounts are then created with `user add` only.")
    var disableSignup = false

    @Option(help: "How long a session lasts, in days (at most 3650). Default: 30")
    var sessionDays: Double = 30
    static let longestSessionDays: Double = 3650

    func run() async throws {
        let logger = try storage.logger()
        var configuration = ServerConfiguration()
        configuration.host = host ?? environment("HOST") ?? "127.0.0.1"
        let portText = port.map(String.init) ?? environment("PORT") ?? "8080"
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ValidationError("The port must be a number from 0 to 65535, not \(portText).")
        }
        configuration.port = port
        configuration.metricsAddress = try metricsAddress(apiPort: port)
        configuration.database = try storage.location()
        configuration.allowAnonymousWrites = allowAnonymousWrites || environment("ALLOW_ANONYMOUS_WRITES") == "1"
        configuration.secureCookies = secureCookies
        configuration.trustProxyHeaders = trustProxyHeaders
        configuration.signupEnabled = !disableSignup
        // NaN, infinity or a lifetime past any date would pass here and crash the first login.
        guard sessionDays.isFinite, sessionDays > 0, sessionDays <= Self.longestSessionDays else {
            throw ValidationError("--session-days must be a number of days above 0 and at most "
                                  + "\(Int(Self.longestSessionDays)), not \(sessionDays).")
        }
        configuration.sessionLifetime = sessionDays * 24 * 3600
        let host = configuration.host
        if let metricsHost = configuration.metricsAddress?.host {
            configuration.onMetricsRunning = { port in
                logger.notice("Metrics on http://\(metricsHost):\(port)/metrics", metadata: ["port": "\(port)"])
            }
        }
        let application = try await buildApplication(configuration: configuration, logger: logger) { port in
            logger.notice("Listening on http://\(host):\(port)", metadata: ["port": "\(port)"])
        }
        if configuration.allowAnonymousWrites {
            logger.warning("Anonymous writes are allowed: anyone can post or change any location.")
        }
        // SIGTERM or SIGINT: stop accepting, finish the requests in flight, close the database, exit.
        let services = ServiceGroup(configuration: .init(services: [application],
                                                         gracefulShutdownSignals: [.sigterm, .sigint],
                                                         logger: logger))
        try await services.run()
    }

    /// Where /metrics listens; nil for `off`.
    func metricsAddress(apiPort: Int) throws -> (host: String, port: Int)? {
        let portText = metricsPort ?? environment("METRICS_PORT") ?? "9464"
        guard portText != "off" else { return nil }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ValidationError("The metrics port must be a number from 0 to 65535, or off, not \(portText).")
        }
        guard port == 0 || port != apiPort else {
            throw ValidationError("The metrics port must differ from the API's port (\(port)): choose another, or off.")
        }
        return (metricsHost ?? environment("METRICS_HOST") ?? "127.0.0.1", port)
    }
}

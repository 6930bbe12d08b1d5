import Foundation
import Logging
import PostgresNIO

/// Everything `buildApplication` needs; the command line fills it from flags and environment.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (the tests do); `onServerRunning` learns which.
    public var port = 8080
    public var database: DatabaseLocation = .sqlite(path: "on-the-map.sqlite")
    /// Udacity's open behaviour: anyone may post or change any location, no session needed.
    public var allowAnonymousWrites = false
    /// Long enough that a student logs in once per course module; Udacity's lasted about 60 days.
    public var sessionLifetime: TimeInterval = 30 * 24 * 3600
    /// Adds `Secure` to the cookies; set it when a TLS reverse proxy is in front (the README's nginx is).
    public var secureCookies = false
    /// Take the client's address from `X-Real-IP` (set by the reverse proxy) for per-address rate limits.
    public var trustProxyHeaders = false
    /// Whether `GET /signup` lets new students create accounts.
    public var signupEnabled = true
    public var loginLimits = LoginLimits()
    /// bcrypt's cost: 2^cost rounds. 12 takes about a quarter of a second; tests use the minimum, 4.
    public var passwordHashCost: UInt8 = 12
    /// Request bodies above this are refused with 413; a location is well under 4 KB.
    public var maximumBodySize = 64 * 1024
    /// Seconds a connection may send and receive nothing before it is closed (keep-alive sockets left open).
    public var idleTimeout: TimeInterval = 60
    public var now: @Sendable () -> Date = { Date() }
    /// Where `GET /metrics` (Prometheus) is served, apart from the public port: behind a local proxy every request
    /// comes from loopback, so only a listener of its own keeps it private. nil: no metrics listener.
    public var metricsAddress: (host: String, port: Int)?
    /// Receives the metrics listener's bound port (useful with port 0).
    public var onMetricsRunning: @Sendable (Int) async -> Void = { _ in }

    public init() {}
}

/// How many failed logins are allowed before `POST /v1/session` answers 429 for a while.
public struct LoginLimits: Sendable {
    /// Failures per account (email) within `window`: slows guessing one student's password.
    public var failuresPerAccount = 5
    /// Failures per client address within `window`: slows trying many accounts from one place.
    public var failuresPerAddress = 20
    public var window: TimeInterval = 15 * 60

    public init(failuresPerAccount: Int = 5, failuresPerAddress: Int = 20, window: TimeInterval = 15 * 60) {
        self.failuresPerAccount = failuresPerAccount
        self.failuresPerAddress = failuresPerAddress
        self.window = window
    }
}

/// Where the data lives: an SQLite file, or a PostgreSQL server.
public enum DatabaseLocation: Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresClient.Configuration)

    /// A file path, or `postgres://user:password@host:port/database?sslmode=disable|prefer|require`
    /// (`?host=/run/postgresql` for a Unix socket folder).
    public init(parsing text: String) throws {
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            guard !text.isEmpty else { throw StoreError.unsupportedDatabase(text) }
            self = .sqlite(path: text)
            return
        }
        guard let url = URLComponents(string: text) else {
            throw StoreError.unsupportedDatabase("(an unreadable postgres:// URL)")
        }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let username = url.user?.removingPercentEncoding ?? "postgres"
        let password = url.password?.removingPercentEncoding
        let databaseName = url.path.isEmpty ? nil : String(url.path.dropFirst()).removingPercentEncoding
        let tls: PostgresClient.Configuration.TLS
        switch query["sslmode"] ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode: throw StoreError.unsupportedDatabase("(sslmode \(mode) is not one of disable, prefer, require)")
        }
        var configuration: PostgresClient.Configuration
        if let socketFolder = query["host"], socketFolder.hasPrefix("/") {
            let port = url.port ?? 5432
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: username,
                                  password: password, database: databaseName)
        } else {
            configuration = .init(host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: username,
                                  password: password, database: databaseName, tls: tls)
        }
        configuration.options.maximumConnections = 16
        self = .postgres(configuration)
    }

    /// For logs: never the password.
    public var description: String {
        switch self {
        case .sqlite(let path): "SQLite at \(path)"
        case .postgres(let configuration):
            "PostgreSQL \(configuration.username)@\(configuration.host ?? configuration.unixSocketPath ?? "?")"
                + ":\(configuration.port.map(String.init) ?? "socket")/\(configuration.database ?? "")"
        }
    }

    /// Opens the store; PostgreSQL's client must still be run as a service before use.
    public func openStore(logger: Logger) async throws -> any StudentStore {
        switch self {
        case .sqlite(let path): try await SQLiteStudentStore.open(path: path)
        case .postgres(let configuration): PostgresStudentStore(configuration: configuration, logger: logger)
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OnTheMapAPI
import ServiceLifecycle

/// Each request's context: Hummingbird's, plus the peer's address for per-address rate limits.
public struct OnTheMapRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Assembles the server: store, accounts, sessions, limits and routes, from one configuration. The store is
/// migrated before the server accepts connections; PostgreSQL's connection pool runs as one of its services.
/// `onServerRunning` receives the bound port (useful with port 0). With `configuration.metricsAddress`, a second
/// listener serves `GET /metrics` there.
public func buildApplication(
    configuration: ServerConfiguration,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let store = try await configuration.database.openStore(logger: logger)
    let metrics = ServerMetrics()
    let countedStore = ErrorCountingStore(base: store, errors: metrics.databaseErrors)
    let lists = LocationLists(store: countedStore)
    let router = buildRouter(configuration: configuration, store: countedStore, lists: lists, metrics: metrics)
    let serverName = "on-the-map-server"
    var application = Application(
        router: router,
        server: .http1(listHandler: { CachedListHandler(lists: lists, serverName: serverName, logger: logger,
                                                       metrics: metrics) },
                       idleTimeout: .nanoseconds(Int64(configuration.idleTimeout * 1e9))),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                             serverName: serverName),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger)
    if let postgres = store as? PostgresStudentStore { application.addServices(postgres.client) }
    if let address = configuration.metricsAddress {
        application.addServices(buildMetricsApplication(metrics: metrics, host: address.host, port: address.port,
                                                        logger: logger, onRunning: configuration.onMetricsRunning))
    }
    application.beforeServerStarts {
        try await DatabaseStart.migrate(store, at: configuration.database, logger: logger)
        logger.info("Database ready", metadata: ["database": "\(configuration.database)"])
    }
    return application
}

func buildRouter(configuration: ServerConfiguration, store: any StudentStore,
                 lists: LocationLists, metrics: ServerMetrics) -> Router<OnTheMapRequestContext> {
    let router = Router(context: OnTheMapRequestContext.self)
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: AccessLogMiddleware())
    router.add(middleware: ErrorBodyMiddleware(prefixed: false))
    let accounts = AccountRegistry(store: store, hashCost: configuration.passwordHashCost, now: configuration.now)
    let sessions = SessionAuthority(store: store, lifetime: configuration.sessionLifetime,
                                    secureCookies: configuration.secureCookies, now: configuration.now)
    let trustProxy = configuration.trustProxyHeaders
    let clientAddress: @Sendable (Request, OnTheMapRequestContext) -> String = { request, context in
        if trustProxy, let forwarded = request.headers[HTTPField.Name("X-Real-IP")!] { return forwarded }
        return context.remoteAddress?.ipAddress ?? "unknown"
    }
    let attempts = store.makeAttemptLedger()
    let turns = PasswordTurns()
    SessionRoutes(accounts: accounts, sessions: sessions, loginLimiter: attempts, turns: turns,
                  limits: configuration.loginLimits, maximumBodySize: configuration.maximumBodySize,
                  clientAddress: clientAddress, metrics: metrics).add(to: router)
    LocationRoutes(store: store, sessions: sessions, lists: lists,
                   allowAnonymousWrites: configuration.allowAnonymousWrites,
                   maximumBodySize: configuration.maximumBodySize).add(to: router)
    SignupPage(accounts: accounts, enabled: configuration.signupEnabled, limiter: attempts, turns: turns,
               clientAddress: clientAddress, maximumBodySize: configuration.maximumBodySize,
               secureCookies: configuration.secureCookies, metrics: metrics).add(to: router)
    HealthRoutes(readiness: DatabaseReadiness(store: store)).add(to: router)
    return router
}

/// Runs `body` with the store at `location`, migrated; PostgreSQL's pool runs only for that time.
/// For the command line's `user` commands and for tests.
public func withMigratedStore<Result: Sendable>(
    _ location: DatabaseLocation, logger: Logger,
    _ body: @escaping @Sendable (any StudentStore) async throws -> Result
) async throws -> Result {
    let store = try await location.openStore(logger: logger)
    guard let postgres = store as? PostgresStudentStore else {
        try await store.migrate()
        return try await body(store)
    }
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { await postgres.client.run(); return nil }
        defer { group.cancelAll() }
        try await store.migrate()
        return try await body(store)
    }
}

/// One line per request at `info` (health probes at `debug`): method, path, status, milliseconds. Never headers or
/// bodies (sessions, passwords), never the query of /v1/session.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = OnTheMapRequestContext

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let level: Logger.Level = HealthRoutes.paths.contains(request.uri.path) ? .debug : .info
        if context.logger.logLevel <= level {
            AccessLog.record(context.logger, method: request.method, path: request.uri.path, status: response.status,
                             since: start, level: level)
        }
        return response
    }
}

/// The access log's line, written by `AccessLogMiddleware` and by `CachedListHandler` for the lists it answers.
enum AccessLog {
    static func record(_ logger: Logger, method: HTTPRequest.Method, path: String, status: HTTPResponse.Status,
                       since start: ContinuousClock.Instant, level: Logger.Level = .info) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.log(level: level, "\(method) \(path)", metadata: [
            "status": "\(status.code)", "ms": "\(String(format: "%.1f", milliseconds))",
        ])
    }
}

import HTTPTypes
import Hummingbird
import Metrics
import class Prometheus.PrometheusCollectorRegistry
import struct Prometheus.PrometheusMetricsFactory

/// The server's counters and histograms, on a registry of its own: `MetricsSystem.bootstrap` may run once per
/// process, and the tests start many servers in one. Only this file knows the backend is Prometheus.
struct ServerMetrics: Sendable {
    /// What `GET /metrics` (the metrics listener) emits.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    let loginsFailed: Counter
    /// Logins answered 429 (too many failures for the account or the address, or too many waiting).
    let loginsLimited: Counter
    let signupsCreated: Counter
    /// Sign-ups refused for their content: a taken email, a weak password, a missing name.
    let signupsRefused: Counter
    let signupsLimited: Counter
    /// Store calls that failed for the database's reasons, not the client's.
    let databaseErrors: Counter
    /// The list fast path's request, made once: it answers most requests and should not look its metrics up.
    let listAnswered: (count: Counter, duration: Timer)

    /// The route label of `CachedListHandler`'s answers, the list route's pattern.
    static let listRoute = CachedListHandler.path
    /// The route label of every request no route matched: a client must not make label values of its own.
    static let unmatchedRoute = "other"
    /// 1 ms to 5 s: a cached list takes well under 1 ms, a login's bcrypt about 250 ms, a hung database 5 s.
    static let durationBuckets: [Duration] = [.milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10),
                                              .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                              .milliseconds(250), .milliseconds(500), .seconds(1),
                                              .milliseconds(2500), .seconds(5)]
    private static let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .options, .patch]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = ["http_request_duration_seconds": Self.durationBuckets]
        self.factory = factory
        loginsFailed = Counter(label: "logins_failed_total", factory: factory)
        loginsLimited = Counter(label: "logins_limited_total", factory: factory)
        signupsCreated = Counter(label: "signups_total", dimensions: [("outcome", "created")], factory: factory)
        signupsRefused = Counter(label: "signups_total", dimensions: [("outcome", "refused")], factory: factory)
        signupsLimited = Counter(label: "signups_total", dimensions: [("outcome", "limited")], factory: factory)
        databaseErrors = Counter(label: "database_errors_total", factory: factory)
        listAnswered = (Self.requestCounter(route: Self.listRoute, method: "GET", status: 200, factory: factory),
                        Self.durationTimer(route: Self.listRoute, factory: factory))
    }

    /// Counts one answered request and its duration. `route` is a route's pattern (or `unmatchedRoute`), never a path.
    func recordRequest(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let methodLabel = Self.knownMethods.contains(method) ? method.rawValue : "other"
        Self.requestCounter(route: route, method: methodLabel, status: status.code, factory: factory).increment()
        Self.durationTimer(route: route, factory: factory).record(duration: duration)
    }

    private static func requestCounter(route: String, method: String, status: Int,
                                       factory: PrometheusMetricsFactory) -> Counter {
        Counter(label: "http_requests_total", dimensions: [("route", route), ("method", method), ("status", "\(status)")],
                factory: factory)
    }

    private static func durationTimer(route: String, factory: PrometheusMetricsFactory) -> Timer {
        Timer(label: "http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
    }
}

import Foundation
import Hummingbird

/// `GET /livez` (the process serves) and `GET /readyz` (the database answers a query on the migrated schema), for
/// load balancers and orchestrators; the access log writes them at `debug` only, as they poll every second or so.
struct HealthRoutes: Sendable {
    static let paths: Set<String> = ["/livez", "/readyz"]
    let readiness: DatabaseReadiness

    private struct Status: Encodable { var status: String }

    func add(to router: Router<OnTheMapRequestContext>) {
        router.get("livez") { _, _ in try APIResponse.json(Status(status: "live")) }
        router.get("readyz") { _, context in
            if let problem = await readiness.problem() {
                context.logger.warning("Not ready: the database is not reachable", metadata: ["error": "\(problem.detail)"])
                throw APIError(status: .serviceUnavailable, message: "The database is not reachable: \(problem.reason)",
                               headers: [.retryAfter: "1"])
            }
            return try APIResponse.json(Status(status: "ready"))
        }
    }
}

/// Whether the database answers `locationsRevision()` (a read of the migrated schema) within `deadline`. A hung query
/// is not waited for past the deadline, and for a second after one, probes answer at once without a new query: probes
/// every second must not pile queries onto a database that is already stuck (`DatabaseDeadline`).
final class DatabaseReadiness: Sendable {
    let store: any StudentStore
    private let deadline: DatabaseDeadline

    init(store: any StudentStore, deadline: Duration = .seconds(2)) {
        self.store = store
        self.deadline = DatabaseDeadline(limit: deadline, pause: .seconds(1))
    }

    struct Problem: Sendable {
        /// For any client: no address, no password.
        var reason: String
        /// For the log.
        var detail: String
    }

    /// nil when the database answered in time.
    func problem() async -> Problem? {
        do {
            _ = try await deadline.run { [store] in try await store.locationsRevision() }
            return nil
        } catch StoreError.unavailable {
            return Problem(reason: "it did not answer within \(deadline.limit.components.seconds) seconds.",
                           detail: "locationsRevision() did not answer within \(deadline.limit)")
        } catch {
            // The error's own words: PostgresNIO's say nothing on purpose, SQLite's name the problem, neither holds a
            // password.
            return Problem(reason: (error as? StoreError)?.description ?? "\(error)", detail: String(reflecting: error))
        }
    }
}

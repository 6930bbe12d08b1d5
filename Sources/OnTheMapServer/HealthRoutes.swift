import Foundation
import Hummingbird
import Synchronization

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

/// Whether the database answers `locationsRevision()` (a read of the migrated schema) within `deadline`.
/// A hung query is not waited for past the deadline, and while one is unanswered no second one is started: probes
/// every second must not pile queries onto a database that is already stuck.
final class DatabaseReadiness: Sendable {
    let store: any StudentStore
    let deadline: Duration
    private let pending = Mutex<(query: Task<Void, any Error>, started: ContinuousClock.Instant)?>(nil)

    init(store: any StudentStore, deadline: Duration = .seconds(2)) {
        self.store = store
        self.deadline = deadline
    }

    struct Problem: Sendable {
        /// For any client: no address, no password.
        var reason: String
        /// For the log.
        var detail: String
    }

    /// nil when the database answered in time.
    func problem() async -> Problem? {
        let now = ContinuousClock.now
        let (query, started) = pending.withLock { pending in
            if let pending { return pending }
            let query = Task { [store] in
                defer { self.pending.withLock { $0 = nil } }
                _ = try await store.locationsRevision()
            }
            pending = (query, now)
            return (query, now)
        }
        let timedOut = Problem(reason: "it did not answer within \(deadline.components.seconds) seconds.",
                               detail: "locationsRevision() did not answer within \(deadline)")
        // A query already past its deadline is hung: answering at once keeps waiting probes from piling up.
        guard now - started < deadline else { return timedOut }
        switch await Self.outcome(of: query, within: deadline - (now - started)) {
        case .success?: return nil
        case .failure(let error)?: return Problem(reason: Self.reason(error), detail: String(reflecting: error))
        case nil: return timedOut
        }
    }

    /// The error's own words: PostgresNIO's say nothing on purpose, SQLite's name the problem, neither holds a password.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? StoreError { return error.description }
        return "\(error)"
    }

    /// `task`'s result, or nil once `limit` passes; the task keeps running (a task group would wait for it).
    private static func outcome(of task: Task<Void, any Error>,
                                within limit: Duration) async -> Result<Void, any Error>? {
        let race = Race()
        return await withCheckedContinuation { continuation in
            race.waiting.withLock { $0 = continuation }
            race.timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: limit)
                    race.finish(nil)
                }
            }
            Task { race.finish(await task.result) }
        }
    }

    /// The query and the timer racing to answer one waiting probe; the first to finish answers.
    private final class Race: Sendable {
        let waiting = Mutex<CheckedContinuation<Result<Void, any Error>?, Never>?>(nil)
        let timer = Mutex<Task<Void, Never>?>(nil)

        func finish(_ outcome: Result<Void, any Error>?) {
            waiting.withLock { $0.take() }?.resume(returning: outcome)
            timer.withLock { $0 }?.cancel()
        }
    }
}

import Foundation
import Logging
import ServiceLifecycle

/// Readies the store before the server listens. A PostgreSQL that does not answer is waited for — said at warning
/// level at every attempt, since a load balancer or systemd may start the server first — and SIGTERM or SIGINT ends
/// the wait (a graceful shutdown cancels it). SQLite either opens or fails at once, with its own message.
enum DatabaseStart {
    static func migrate(_ store: any StudentStore, at location: DatabaseLocation, logger: Logger,
                        attempt: Duration = .seconds(5), retryAfter: Duration = .seconds(5)) async throws {
        guard case .postgres = location else { return try await store.migrate() }
        do {
            try await waitAndMigrate(store, at: location, logger: logger, attempt: attempt, retryAfter: retryAfter)
        } catch is CancellationError {
            logger.notice("Stopped while waiting for the database.", metadata: ["database": "\(location)"])
            throw StoreError.unavailable
        }
    }

    private static func waitAndMigrate(_ store: any StudentStore, at location: DatabaseLocation, logger: Logger,
                                       attempt: Duration, retryAfter: Duration) async throws {
        try await cancelWhenGracefulShutdown {
            let deadline = DatabaseDeadline(limit: attempt, pause: .zero)
            while true {
                do {
                    try await deadline.run { try await store.migrate() }
                    return
                } catch StoreError.unavailable {
                    logger.warning("The database does not answer; the server listens once it does. Trying again.",
                                   metadata: ["database": "\(location)", "retry_seconds": "\(retryAfter.components.seconds)"])
                }
                try await Task.sleep(for: retryAfter)
            }
        }
    }
}

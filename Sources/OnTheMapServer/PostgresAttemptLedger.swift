import Foundation
import PostgresNIO

/// Login and sign-up attempts counted in PostgreSQL, so every server sharing the database enforces one limit: three
/// servers behind a load balancer do not triple anyone's guesses. Each key is counted under its own advisory lock,
/// so attempts sent at once to different servers are still counted one after another.
extension PostgresStudentStore: AttemptLedger {
    public func makeAttemptLedger() -> any AttemptLedger { self }

    /// Longer than any limit's window (sign-ups: an hour), in milliseconds.
    private static let keptAttempts: Int64 = 24 * 3600 * 1000

    public func admit(_ limits: [AttemptLimit], window: TimeInterval, now: Date) async throws -> TimeInterval? {
        let logger = self.logger
        let nowMilliseconds = StoredTime.milliseconds(now)
        let since = nowMilliseconds - Int64(window * 1000)
        return try await deadline.run { [client] in
            try await client.withTransaction(logger: logger) { connection -> TimeInterval? in
                // Locks taken in one order by every server, so two admissions never wait on each other in a circle.
                for key in Set(limits.map(\.key)).sorted() {
                    try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: logger)
                }
                var wait: TimeInterval?
                for limit in limits {
                    let rows = try await connection.query("""
                        SELECT at FROM attempt WHERE key = \(limit.key) AND at > \(since)
                        ORDER BY at DESC LIMIT \(limit.limit)
                        """, logger: logger)
                    var recent: [Int64] = []
                    for try await at in rows.decode(Int64.self) { recent.append(at) }
                    if recent.count >= limit.limit, let oldest = recent.last {
                        wait = max(wait ?? 0, window - Double(nowMilliseconds - oldest) / 1000)
                    }
                }
                guard wait == nil else { return wait }
                if Int.random(in: 0..<100) == 0 { // now and then, keys no one uses any more (a spray of addresses)
                    try await connection.query("DELETE FROM attempt WHERE at < \(nowMilliseconds - Self.keptAttempts)",
                                               logger: logger)
                }
                for limit in limits {
                    try await connection.query("""
                        WITH expired AS (DELETE FROM attempt WHERE key = \(limit.key) AND at <= \(since))
                        INSERT INTO attempt (key, at) VALUES (\(limit.key), \(nowMilliseconds))
                        """, logger: logger)
                }
                return nil
            }
        }
    }

    public func withdraw(_ keys: [String], at now: Date) async throws {
        let logger = self.logger
        let at = StoredTime.milliseconds(now)
        try await deadline.run { [client] in
            for key in keys {
                try await client.query("""
                    DELETE FROM attempt WHERE ctid = (SELECT ctid FROM attempt WHERE key = \(key) AND at = \(at) LIMIT 1)
                    """, logger: logger)
            }
        }
    }

    public func forget(_ key: String) async throws {
        let logger = self.logger
        try await deadline.run { [client] in
            try await client.query("DELETE FROM attempt WHERE key = \(key)", logger: logger)
        }
    }
}

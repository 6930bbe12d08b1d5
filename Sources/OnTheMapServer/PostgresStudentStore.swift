import Foundation
import Logging
import OnTheMapAPI
import PostgresNIO

/// The shared store: PostgreSQL through a postgres-nio connection pool. Several servers may use one database;
/// migrations run under an advisory lock so that they never race.
public final class PostgresStudentStore: StudentStore {
    /// Run it as a service (`client.run()`) before calling anything else; `buildApplication` does.
    public let client: PostgresClient
    let logger: Logger
    /// Every call but `migrate` fails with `StoreError.unavailable` within 5 s when the database does not answer.
    let deadline = DatabaseDeadline()
    /// Arbitrary but fixed: every server migrating this database takes the same advisory lock.
    private static let migrationLockKey: Int64 = 0x4F6E_5468_654D_6170 // "OnTheMap"

    public init(configuration: PostgresClient.Configuration, logger: Logger) {
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    private static let migrations: [(name: String, statements: [PostgresQuery])] = [
        ("v1: accounts, sessions, locations", [
            """
            CREATE TABLE account (
                key TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                nickname TEXT NOT NULL,
                created_at BIGINT NOT NULL)
            """,
            """
            CREATE TABLE session (
                id_hash TEXT PRIMARY KEY,
                account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                xsrf_token TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL)
            """,
            "CREATE INDEX session_by_account ON session(account_key)",
            "CREATE INDEX session_by_expiry ON session(expires_at)",
            """
            CREATE TABLE student_location (
                object_id TEXT PRIMARY KEY,
                unique_key TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                map_string TEXT NOT NULL,
                media_url TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL)
            """,
            "CREATE INDEX location_by_update ON student_location(updated_at, object_id)",
            "CREATE INDEX location_by_student ON student_location(unique_key, updated_at, object_id)",
            "CREATE TABLE location_revision (id INTEGER PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL)",
            "INSERT INTO location_revision (id, value) VALUES (1, 0)",
        ]),
        ("v2: attempts shared by every server", [
            "CREATE TABLE attempt (key TEXT NOT NULL, at BIGINT NOT NULL)",
            "CREATE INDEX attempt_by_key ON attempt(key, at)",
        ]),
    ]

    public func migrate() async throws {
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            // Held until this transaction ends: a second server starting now waits here, then finds nothing to do.
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS on_the_map_migration (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)
                """, logger: logger)
            var applied = Set<String>()
            for try await name in try await connection.query("SELECT name FROM on_the_map_migration",
                                                             logger: logger).decode(String.self) {
                applied.insert(name)
            }
            for migration in Self.migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(statement, logger: logger)
                }
                let now = StoredTime.milliseconds(Date())
                try await connection.query("""
                    INSERT INTO on_the_map_migration (name, applied_at) VALUES (\(migration.name), \(now))
                    """, logger: logger)
                logger.info("Applied database migration", metadata: ["migration": "\(migration.name)"])
            }
        }
    }

    // MARK: Accounts

    private typealias AccountColumns = (String, String, String, String, String, String, Int64)
    private static let accountColumns = "key, email, password_hash, first_name, last_name, nickname, created_at"

    public func createAccount(_ account: Account) async throws {
        try await deadline.run { [self] in
            do {
                try await client.query("""
                    INSERT INTO account (key, email, password_hash, first_name, last_name, nickname, created_at)
                    VALUES (\(account.key), \(account.email), \(account.passwordHash), \(account.firstName),
                            \(account.lastName), \(account.nickname), \(StoredTime.milliseconds(account.createdAt)))
                    """, logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505"
                && (error.serverInfo?[.constraintName] ?? "").contains("email") {
                throw StoreError.emailTaken(account.email)
            }
        }
    }

    public func account(email: String) async throws -> Account? {
        try await deadline.run { [self] in
            try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE email = \(email)").first
        }
    }

    public func account(key: String) async throws -> Account? {
        try await deadline.run { [self] in
            try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE key = \(key)").first
        }
    }

    public func allAccounts() async throws -> [Account] {
        try await deadline.run { [self] in
            try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account ORDER BY email")
        }
    }

    private func accounts(_ query: PostgresQuery) async throws -> [Account] {
        var accounts: [Account] = []
        for try await row in try await client.query(query, logger: logger).decode(AccountColumns.self) {
            accounts.append(Account(key: row.0, email: row.1, passwordHash: row.2, firstName: row.3, lastName: row.4,
                                    nickname: row.5, createdAt: StoredTime.date(row.6)))
        }
        return accounts
    }

    public func removeAccount(email: String) async throws -> Bool {
        try await deadline.run { [self] in
            let logger = self.logger
            return try await client.withTransaction(logger: logger) { connection in
                var key: String?
                for try await found in try await connection.query("SELECT key FROM account WHERE email = \(email) FOR UPDATE",
                                                                  logger: logger).decode(String.self) {
                    key = found
                }
                guard let key else { return false }
                try await connection.query("""
                    WITH removed AS (DELETE FROM student_location WHERE unique_key = \(key))
                    UPDATE location_revision SET value = value + 1 WHERE id = 1
                    """, logger: logger)
                try await connection.query("DELETE FROM account WHERE key = \(key)", logger: logger) // sessions cascade
                return true
            }
        }
    }

    // MARK: Sessions

    public func createSession(_ session: StoredSession) async throws {
        try await deadline.run { [self] in
            try await client.query("""
                INSERT INTO session (id_hash, account_key, xsrf_token, created_at, expires_at)
                VALUES (\(session.idHash), \(session.accountKey), \(session.xsrfToken),
                        \(StoredTime.milliseconds(session.createdAt)), \(StoredTime.milliseconds(session.expiresAt)))
                """, logger: logger)
        }
    }

    public func session(idHash: String) async throws -> StoredSession? {
        try await deadline.run { [self] in
            let rows = try await client.query("""
                SELECT id_hash, account_key, xsrf_token, created_at, expires_at FROM session WHERE id_hash = \(idHash)
                """, logger: logger)
            for try await row in rows.decode((String, String, String, Int64, Int64).self) {
                return StoredSession(idHash: row.0, accountKey: row.1, xsrfToken: row.2,
                                     createdAt: StoredTime.date(row.3), expiresAt: StoredTime.date(row.4))
            }
            return nil
        }
    }

    public func deleteSession(idHash: String) async throws {
        try await deadline.run { [self] in
            try await client.query("DELETE FROM session WHERE id_hash = \(idHash)", logger: logger)
        }
    }

    public func deleteSessions(expiredBefore date: Date) async throws {
        try await deadline.run { [self] in
            try await client.query("DELETE FROM session WHERE expires_at < \(StoredTime.milliseconds(date))", logger: logger)
        }
    }

    // MARK: Student locations

    private typealias LocationColumns = (String, String, String, String, String, String, Double, Double, Int64, Int64)
    private static let locationColumns = """
        object_id, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at
        """

    public func locationsRevision() async throws -> Int64 {
        try await deadline.run { [self] in
            for try await value in try await client.query("SELECT value FROM location_revision WHERE id = 1",
                                                           logger: logger).decode(Int64.self) {
                return value
            }
            return 0
        }
    }

    public func locations(_ query: LocationQuery) async throws -> [StudentLocation] {
        try await deadline.run { [self] in
            let direction = query.order == .newestFirst ? "DESC" : "ASC"
            let sql: PostgresQuery = if let uniqueKey = query.uniqueKey {
                """
                SELECT \(unescaped: Self.locationColumns) FROM student_location WHERE unique_key = \(uniqueKey)
                ORDER BY updated_at \(unescaped: direction), object_id \(unescaped: direction)
                LIMIT \(query.limit) OFFSET \(query.skip)
                """
            } else {
                """
                SELECT \(unescaped: Self.locationColumns) FROM student_location
                ORDER BY updated_at \(unescaped: direction), object_id \(unescaped: direction)
                LIMIT \(query.limit) OFFSET \(query.skip)
                """
            }
            return try await locations(sql)
        }
    }

    public func location(objectId: String) async throws -> StudentLocation? {
        try await deadline.run { [self] in
            try await locations("""
                SELECT \(unescaped: Self.locationColumns) FROM student_location WHERE object_id = \(objectId)
                """).first
        }
    }

    private func locations(_ query: PostgresQuery) async throws -> [StudentLocation] {
        var locations: [StudentLocation] = []
        for try await row in try await client.query(query, logger: logger).decode(LocationColumns.self) {
            locations.append(StudentLocation(objectId: row.0, uniqueKey: row.1, firstName: row.2, lastName: row.3,
                                             mapString: row.4, mediaURL: row.5, latitude: row.6, longitude: row.7,
                                             createdAt: StoredTime.date(row.8), updatedAt: StoredTime.date(row.9)))
        }
        return locations
    }

    public func insertLocation(_ location: StudentLocation) async throws {
        try await deadline.run { [self] in
            // One statement, so the row and the revision change together without a transaction round trip.
            try await client.query("""
                WITH inserted AS (
                    INSERT INTO student_location (\(unescaped: Self.locationColumns))
                    VALUES (\(location.objectId), \(location.uniqueKey), \(location.firstName), \(location.lastName),
                            \(location.mapString), \(location.mediaURL), \(location.latitude), \(location.longitude),
                            \(StoredTime.milliseconds(location.createdAt)), \(StoredTime.milliseconds(location.updatedAt))))
                UPDATE location_revision SET value = value + 1 WHERE id = 1
                """, logger: logger)
        }
    }

    public func updateLocation(objectId: String, with posting: StudentLocationPosting, at date: Date) async throws -> Bool {
        try await deadline.run { [self] in
            let rows = try await client.query("""
                WITH updated AS (
                    UPDATE student_location SET unique_key = \(posting.uniqueKey), first_name = \(posting.firstName),
                        last_name = \(posting.lastName), map_string = \(posting.mapString), media_url = \(posting.mediaURL),
                        latitude = \(posting.latitude), longitude = \(posting.longitude),
                        updated_at = \(StoredTime.milliseconds(date))
                    WHERE object_id = \(objectId) RETURNING object_id)
                UPDATE location_revision SET value = value + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM updated)
                RETURNING value
                """, logger: logger)
            var updated = false
            for try await _ in rows { updated = true }
            return updated
        }
    }
}

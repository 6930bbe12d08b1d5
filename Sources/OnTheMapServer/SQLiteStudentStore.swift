import Foundation
import GRDB
import OnTheMapAPI

/// The embedded store: one SQLite file in WAL mode (GRDB's `DatabasePool`: one writer, concurrent readers).
public final class SQLiteStudentStore: StudentStore {
    private let pool: DatabasePool

    /// Opens (creating if needed) the database at `path`; `migrate()` creates the tables.
    ///
    /// Opening switches a new file to WAL. When several processes (servers, `user add`) open one new file at
    /// once, that switch can answer "database is locked" at once: SQLite calls no busy handler there. So the
    /// open is tried again, for up to the same 10 s a busy write waits.
    public static func open(path: String) async throws -> SQLiteStudentStore {
        let deadline = ContinuousClock.now + openPatience
        while true {
            do {
                return try SQLiteStudentStore(path: path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(Int.random(in: 5...25)))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY
                        || error.resultCode == .SQLITE_PERM {
                throw StoreError.cannotOpen(path: path, advice: advice(forOpening: path))
            }
        }
    }

    private static let openPatience = Duration.seconds(10)

    /// What to do about a file SQLite cannot open: most often its folder is missing or not writable (SQLite keeps
    /// its write-ahead log beside the file).
    private static func advice(forOpening path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "its folder \(folder) does not exist. Create it (mkdir -p \(folder)) or give --database a path in "
                + "an existing folder."
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            return "this user cannot write in its folder \(folder) (SQLite keeps a journal beside the file). Give "
                + "the server's user write access to the folder, or give --database a path in a folder it can write."
        }
        if FileManager.default.fileExists(atPath: path), !FileManager.default.isWritableFile(atPath: path) {
            return "the file is read-only for this user. Give the server's user write access to it."
        }
        return "check that it is an SQLite database and that this user may read and write it."
    }

    private init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10) // the CLI may write while a server runs
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL") // WAL + NORMAL is durable at each checkpoint
        }
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    public func migrate() async throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: accounts, sessions, locations") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    key TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    nickname TEXT NOT NULL,
                    created_at INTEGER NOT NULL);
                CREATE TABLE session (
                    id_hash TEXT PRIMARY KEY NOT NULL,
                    account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                    xsrf_token TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL);
                CREATE INDEX session_by_account ON session(account_key);
                CREATE INDEX session_by_expiry ON session(expires_at);
                CREATE TABLE student_location (
                    object_id TEXT PRIMARY KEY NOT NULL,
                    unique_key TEXT NOT NULL,
                    first_name TEXT NOT NULL,
                    last_name TEXT NOT NULL,
                    map_string TEXT NOT NULL,
                    media_url TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL);
                CREATE INDEX location_by_update ON student_location(updated_at, object_id);
                CREATE INDEX location_by_student ON student_location(unique_key, updated_at, object_id);
                CREATE TABLE location_revision (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    value INTEGER NOT NULL);
                INSERT INTO location_revision (id, value) VALUES (1, 0);
                """)
        }
        // Synchronous: runs once, before the server listens. Servers started together on one file
        // race: each reads "not applied yet", one creates the tables and the others' CREATE fails.
        // A loser tries again, now seeing what the winner applied (each migration is one transaction).
        var attempt = 1
        while true {
            do {
                try migrator.migrate(pool)
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR && attempt < 5 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(20 * attempt))
            }
        }
    }

    // MARK: Accounts

    public func createAccount(_ account: Account) async throws {
        do {
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO account (key, email, password_hash, first_name, last_name, nickname, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [account.key, account.email, account.passwordHash, account.firstName,
                                     account.lastName, account.nickname, StoredTime.milliseconds(account.createdAt)])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            && (error.message ?? "").contains("email") {
            throw StoreError.emailTaken(account.email)
        }
    }

    public func account(email: String) async throws -> Account? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE email = ?", arguments: [email]).map(Self.account)
        }
    }

    public func account(key: String) async throws -> Account? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE key = ?", arguments: [key]).map(Self.account)
        }
    }

    public func allAccounts() async throws -> [Account] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY email").map(Self.account)
        }
    }

    public func removeAccount(email: String) async throws -> Bool {
        try await pool.write { db in
            guard let key = try String.fetchOne(db, sql: "SELECT key FROM account WHERE email = ?",
                                                arguments: [email]) else { return false }
            try db.execute(sql: "DELETE FROM student_location WHERE unique_key = ?", arguments: [key])
            try Self.bumpRevision(db)
            try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [key]) // sessions cascade
            return true
        }
    }

    // MARK: Sessions

    public func createSession(_ session: StoredSession) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO session (id_hash, account_key, xsrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
                """, arguments: [session.idHash, session.accountKey, session.xsrfToken,
                                 StoredTime.milliseconds(session.createdAt), StoredTime.milliseconds(session.expiresAt)])
        }
    }

    public func session(idHash: String) async throws -> StoredSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id_hash = ?", arguments: [idHash]).map { row in
                StoredSession(idHash: row["id_hash"], accountKey: row["account_key"], xsrfToken: row["xsrf_token"],
                              createdAt: StoredTime.date(row["created_at"]), expiresAt: StoredTime.date(row["expires_at"]))
            }
        }
    }

    public func deleteSession(idHash: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE id_hash = ?", arguments: [idHash])
        }
    }

    public func deleteSessions(expiredBefore date: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expires_at < ?", arguments: [StoredTime.milliseconds(date)])
        }
    }

    // MARK: Student locations

    public func locationsRevision() async throws -> Int64 {
        try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM location_revision WHERE id = 1") ?? 0
        }
    }

    public func locations(_ query: LocationQuery) async throws -> [StudentLocation] {
        let direction = query.order == .newestFirst ? "DESC" : "ASC"
        let filter = query.uniqueKey == nil ? "" : "WHERE unique_key = :uniqueKey"
        let sql = """
            SELECT * FROM student_location \(filter)
            ORDER BY updated_at \(direction), object_id \(direction) LIMIT :limit OFFSET :skip
            """
        let arguments: StatementArguments = query.uniqueKey.map { ["limit": query.limit, "skip": query.skip, "uniqueKey": $0] }
            ?? ["limit": query.limit, "skip": query.skip]
        return try await pool.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.location)
        }
    }

    public func location(objectId: String) async throws -> StudentLocation? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM student_location WHERE object_id = ?",
                             arguments: [objectId]).map(Self.location)
        }
    }

    public func insertLocation(_ location: StudentLocation) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO student_location (object_id, unique_key, first_name, last_name, map_string, media_url,
                                              latitude, longitude, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [location.objectId, location.uniqueKey, location.firstName, location.lastName,
                                 location.mapString, location.mediaURL, location.latitude, location.longitude,
                                 StoredTime.milliseconds(location.createdAt), StoredTime.milliseconds(location.updatedAt)])
            try Self.bumpRevision(db)
        }
    }

    public func updateLocation(objectId: String, with posting: StudentLocationPosting, at date: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE student_location SET unique_key = ?, first_name = ?, last_name = ?, map_string = ?,
                    media_url = ?, latitude = ?, longitude = ?, updated_at = ?
                WHERE object_id = ?
                """, arguments: [posting.uniqueKey, posting.firstName, posting.lastName, posting.mapString,
                                 posting.mediaURL, posting.latitude, posting.longitude,
                                 StoredTime.milliseconds(date), objectId])
            guard db.changesCount > 0 else { return false }
            try Self.bumpRevision(db)
            return true
        }
    }

    // MARK: Rows

    private static func bumpRevision(_ db: GRDB.Database) throws {
        try db.execute(sql: "UPDATE location_revision SET value = value + 1 WHERE id = 1")
    }

    private static func account(_ row: Row) -> Account {
        Account(key: row["key"], email: row["email"], passwordHash: row["password_hash"], firstName: row["first_name"],
                lastName: row["last_name"], nickname: row["nickname"], createdAt: StoredTime.date(row["created_at"]))
    }

    private static func location(_ row: Row) -> StudentLocation {
        StudentLocation(objectId: row["object_id"], uniqueKey: row["unique_key"], firstName: row["first_name"],
                        lastName: row["last_name"], mapString: row["map_string"], mediaURL: row["media_url"],
                        latitude: row["latitude"], longitude: row["longitude"],
                        createdAt: StoredTime.date(row["created_at"]), updatedAt: StoredTime.date(row["updated_at"]))
    }

    /// One server per SQLite file: its attempts are counted in its memory.
    public func makeAttemptLedger() -> any AttemptLedger { AttemptLimiter() }
}

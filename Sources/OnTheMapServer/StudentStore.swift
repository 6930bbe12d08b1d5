import Foundation
import OnTheMapAPI

/// Everything the server keeps: accounts, sessions and student locations. Two real implementations,
/// `SQLiteStudentStore` (embedded, the default) and `PostgresStudentStore` (shared by several servers).
public protocol StudentStore: Sendable {
    /// Creates or upgrades the schema; safe to call on every start and from several servers at once.
    func migrate() async throws

    // MARK: Accounts
    /// Throws `StoreError.emailTaken` if an account already uses the email (compared case-insensitively).
    func createAccount(_ account: Account) async throws
    func account(email: String) async throws -> Account?
    func account(key: String) async throws -> Account?
    func allAccounts() async throws -> [Account]
    /// Removes the account, its sessions and its locations; false if no account has that email.
    func removeAccount(email: String) async throws -> Bool

    // MARK: Sessions
    func createSession(_ session: StoredSession) async throws
    /// The session whose id hashes to `idHash`, expired or not (the caller decides).
    func session(idHash: String) async throws -> StoredSession?
    func deleteSession(idHash: String) async throws
    func deleteSessions(expiredBefore date: Date) async throws

    // MARK: Student locations
    /// Increases with every change to the locations (in any server sharing the database); keys the read cache.
    func locationsRevision() async throws -> Int64
    func locations(_ query: LocationQuery) async throws -> [StudentLocation]
    func location(objectId: String) async throws -> StudentLocation?
    func insertLocation(_ location: StudentLocation) async throws
    /// Replaces the posted fields and `updatedAt`; false if no location has that objectId.
    func updateLocation(objectId: String, with posting: StudentLocationPosting, at date: Date) async throws -> Bool

    // MARK: Attempts
    /// Where login and sign-up attempts are counted: where every server using this database sees them.
    func makeAttemptLedger() -> any AttemptLedger
}

/// A student who can log in. `passwordHash` is a bcrypt hash; the password itself is never stored.
public struct Account: Sendable, Hashable {
    public var key: String
    public var email: String
    public var passwordHash: String
    public var firstName: String
    public var lastName: String
    public var nickname: String
    public var createdAt: Date

    public init(key: String, email: String, passwordHash: String, firstName: String, lastName: String,
                nickname: String, createdAt: Date) {
        self.key = key
        self.email = email
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.createdAt = createdAt
    }
}

/// A logged-in session as stored: only a SHA-256 of its id, so a copy of the database logs no one in.
public struct StoredSession: Sendable, Hashable {
    public var idHash: String
    public var accountKey: String
    public var xsrfToken: String
    public var createdAt: Date
    public var expiresAt: Date
}

/// `GET /v1/StudentLocation`'s parameters, already validated.
public struct LocationQuery: Sendable, Hashable {
    public static let defaultLimit = 100
    public static let maximumLimit = 1000

    public var limit: Int = LocationQuery.defaultLimit
    public var skip: Int = 0
    public var order: StudentLocationOrder = .newestFirst
    public var uniqueKey: String?

    public init(limit: Int = LocationQuery.defaultLimit, skip: Int = 0, order: StudentLocationOrder = .newestFirst,
                uniqueKey: String? = nil) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.uniqueKey = uniqueKey
    }
}

public enum StoreError: Error, CustomStringConvertible, Equatable {
    case emailTaken(String)
    case unsupportedDatabase(String)
    /// The database did not answer in time (PostgreSQL down or unreachable).
    case unavailable
    /// An SQLite file that cannot be opened: its path and what to do.
    case cannotOpen(path: String, advice: String)

    public var description: String {
        switch self {
        case .emailTaken(let email): "An account with the email \(email) already exists."
        case .unsupportedDatabase(let location):
            "Cannot use the database \(location): give a file path for SQLite or a postgres:// URL."
        case .unavailable:
            "The database is not answering; try again in a moment."
        case .cannotOpen(let path, let advice):
            "Cannot open the SQLite database \(path): \(advice)"
        }
    }
}

/// Timestamps are stored as whole milliseconds since 1970, the precision the API shows.
enum StoredTime {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` as it will be stored and read back, so an answer shows exactly what a later read returns.
    static func rounded(_ date: Date) -> Date {
        self.date(milliseconds(date))
    }
}

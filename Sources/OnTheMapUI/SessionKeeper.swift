import Foundation
import Translations

/// What "Stay logged in" keeps to take a session up again on the next start: never the password.
public struct KeptSession: Codable, Sendable, Equatable, CustomStringConvertible {
    public var server: URL
    public var accountKey: String
    /// Secret: authenticates writes. Lives only in the keyring and in memory, never in a log.
    public var sessionId: String
    public var expiration: Date

    public init(server: URL, accountKey: String, sessionId: String, expiration: Date) {
        self.server = server
        self.accountKey = accountKey
        self.sessionId = sessionId
        self.expiration = expiration
    }

    public var description: String {
        "KeptSession(server: \(server), accountKey: \(accountKey), expires \(expiration))"
    }
}

/// The keyring could not keep the session; `detail` is the keyring's own words.
public struct SessionKeepingError: Error, CustomStringConvertible {
    public var detail: String
    public init(detail: String) { self.detail = detail }
    public var description: String {
        // Translators: %@ is the keyring's own explanation, often in English.
        formatted(tr("The keyring didn't keep your session (%@): you will log in again next time."), detail)
    }
}

/// Where a kept session lives between runs: the user's keyring (`KeyringSessionKeeper`) or memory (tests).
/// Every call may wait on D-Bus, so none runs on the main actor's thread.
public protocol SessionKeeper: Sendable {
    /// Whether a keyring answers and is unlocked, so "Stay logged in" can be offered.
    func isAvailable() async -> Bool
    /// The kept session, if any (a keyring that does not answer keeps none).
    func kept() async -> KeptSession?
    func keep(_ session: KeptSession) async throws(SessionKeepingError)
    func forget() async
}

/// A keeper in memory, for tests and for running without a keyring.
public actor InMemorySessionKeeper: SessionKeeper {
    public var session: KeptSession?
    private let available: Bool

    public init(available: Bool = true, session: KeptSession? = nil) {
        self.available = available
        self.session = session
    }

    public func isAvailable() async -> Bool { available }
    public func kept() async -> KeptSession? { available ? session : nil }

    public func keep(_ session: KeptSession) async throws(SessionKeepingError) {
        guard available else { throw SessionKeepingError(detail: "no keyring") }
        self.session = session
    }

    public func forget() async { session = nil }
}

import Foundation
import Metrics
import OnTheMapAPI

/// A store that counts its failures in `database_errors_total`: every caller (routes, the list fast path, the
/// readiness check) goes through it, so no failure is counted twice or missed. A taken email is the client's error.
struct ErrorCountingStore: StudentStore {
    let base: any StudentStore
    let errors: Counter

    private func counting<T>(_ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch {
            if case StoreError.emailTaken = error {} else if !(error is CancellationError) { errors.increment() }
            throw error
        }
    }

    func migrate() async throws { try await counting { try await base.migrate() } }

    func createAccount(_ account: Account) async throws { try await counting { try await base.createAccount(account) } }
    func account(email: String) async throws -> Account? { try await counting { try await base.account(email: email) } }
    func account(key: String) async throws -> Account? { try await counting { try await base.account(key: key) } }
    func allAccounts() async throws -> [Account] { try await counting { try await base.allAccounts() } }
    func removeAccount(email: String) async throws -> Bool {
        try await counting { try await base.removeAccount(email: email) }
    }

    func createSession(_ session: StoredSession) async throws { try await counting { try await base.createSession(session) } }
    func session(idHash: String) async throws -> StoredSession? {
        try await counting { try await base.session(idHash: idHash) }
    }
    func deleteSession(idHash: String) async throws { try await counting { try await base.deleteSession(idHash: idHash) } }
    func deleteSessions(expiredBefore date: Date) async throws {
        try await counting { try await base.deleteSessions(expiredBefore: date) }
    }

    func locationsRevision() async throws -> Int64 { try await counting { try await base.locationsRevision() } }
    func locations(_ query: LocationQuery) async throws -> [StudentLocation] {
        try await counting { try await base.locations(query) }
    }
    func location(objectId: String) async throws -> StudentLocation? {
        try await counting { try await base.location(objectId: objectId) }
    }
    func insertLocation(_ location: StudentLocation) async throws {
        try await counting { try await base.insertLocation(location) }
    }
    func updateLocation(objectId: String, with posting: StudentLocationPosting, at date: Date) async throws -> Bool {
        try await counting { try await base.updateLocation(objectId: objectId, with: posting, at: date) }
    }
    func makeAttemptLedger() -> any AttemptLedger { base.makeAttemptLedger() }
}

import Foundation
import Synchronization

/// Counts attempts (logins, sign-ups) per key in a sliding window. An attempt is admitted — and counted — before
/// its work starts, so requests sent at once cannot all pass a check that is recorded only after them.
public protocol AttemptLedger: Sendable {
    /// Counts one attempt at `now` for every key, unless one of them already has `limit` within `window`: then
    /// counts nothing and returns the seconds until that key may try again.
    func admit(_ limits: [AttemptLimit], window: TimeInterval, now: Date) async throws -> TimeInterval?
    /// Takes back the attempt counted at `now` for each key (it turned out not to count: a login that succeeded).
    func withdraw(_ keys: [String], at now: Date) async throws
    /// Forgets every attempt of `key` (a student who finally logged in starts afresh).
    func forget(_ key: String) async throws
}

/// A key and how many attempts it may make within the ledger's window.
public struct AttemptLimit: Sendable, Hashable {
    public var key: String
    public var limit: Int

    public init(_ key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}

/// The ledger in this process's memory: right for one server (SQLite); several servers share `PostgresStudentStore`'s.
final class AttemptLimiter: AttemptLedger {
    private let attempts = Mutex<[String: [Date]]>([:])
    /// Above this many keys, forgotten ones are swept (bounds memory under a spray of addresses).
    private static let sweepThreshold = 10_000

    func admit(_ limits: [AttemptLimit], window: TimeInterval, now: Date) -> TimeInterval? {
        attempts.withLock { attempts in
            if attempts.count > Self.sweepThreshold {
                attempts = attempts.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
            }
            var recent: [String: [Date]] = [:]
            var wait: TimeInterval?
            for limit in limits {
                let dates = (attempts[limit.key] ?? []).filter { now.timeIntervalSince($0) < window }
                recent[limit.key] = dates
                if dates.count >= limit.limit, let oldest = dates.suffix(limit.limit).first {
                    wait = max(wait ?? 0, window - now.timeIntervalSince(oldest))
                }
            }
            guard wait == nil else { return wait }
            for limit in limits { attempts[limit.key] = Array((recent[limit.key]! + [now]).suffix(1000)) }
            return nil
        }
    }

    func withdraw(_ keys: [String], at now: Date) {
        attempts.withLock { attempts in
            for key in keys {
                guard let index = attempts[key]?.lastIndex(of: now) else { continue }
                attempts[key]!.remove(at: index)
            }
        }
    }

    func forget(_ key: String) {
        _ = attempts.withLock { $0.removeValue(forKey: key) }
    }
}

extension APIError {
    /// A 429 telling the client when to come back.
    static func tooManyAttempts(retryAfter seconds: TimeInterval, _ message: String) -> APIError {
        let wait = max(1, Int(seconds.rounded(.up)))
        return APIError(status: .tooManyRequests, message: "\(message) Try again in \(wait) seconds.",
                        headers: [.retryAfter: String(wait)])
    }
}

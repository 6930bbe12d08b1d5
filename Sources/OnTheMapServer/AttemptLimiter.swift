import Foundation
import Synchronization

/// Counts attempts (failed logins, sign-ups) per key in a sliding window and says how long a key must
/// wait once it reaches its limit. Kept in memory: each server instance counts for itself.
final class AttemptLimiter: Sendable {
    private let window: TimeInterval
    private let attempts = Mutex<[String: [Date]]>([:])
    /// Above this many keys, forgotten ones are swept (bounds memory under a spray of addresses).
    private static let sweepThreshold = 10_000

    init(window: TimeInterval) {
        self.window = window
    }

    /// Seconds until one of `limits`' keys may try again; nil if none is at its limit.
    func retryAfter(_ limits: [(key: String, limit: Int)], now: Date) -> TimeInterval? {
        attempts.withLock { attempts in
            limits.compactMap { key, limit -> TimeInterval? in
                let recent = (attempts[key] ?? []).filter { now.timeIntervalSince($0) < window }
                guard recent.count >= limit, let oldest = recent.suffix(limit).first else { return nil }
                return window - now.timeIntervalSince(oldest)
            }.max()
        }
    }

    func record(_ keys: [String], now: Date) {
        attempts.withLock { attempts in
            if attempts.count > Self.sweepThreshold {
                attempts = attempts.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
            }
            for key in keys {
                var recent = (attempts[key] ?? []).filter { now.timeIntervalSince($0) < window }
                recent.append(now)
                attempts[key] = Array(recent.suffix(1000))
            }
        }
    }

    func reset(_ key: String) {
        _ = attempts.withLock { $0.removeValue(forKey: key) }
    }

    /// A 429 telling the client when to come back.
    static func tooManyAttempts(retryAfter seconds: TimeInterval, _ message: String) -> APIError {
        let wait = max(1, Int(seconds.rounded(.up)))
        return APIError(status: .tooManyRequests, message: "\(message) Try again in \(wait) seconds.",
                        headers: [.retryAfter: String(wait)])
    }
}

/// Lets callers through at least `minimumInterval` apart.
///
/// Nominatim's usage policy allows one request per second for the whole application, so every
/// geocoder shares `shared` unless a test gives it its own.
public actor RequestRateLimiter {
    public static let shared = RequestRateLimiter()

    public let minimumInterval: Duration
    private let clock: ElapsedTime
    /// When the last caller was let through; nil before the first.
    private var lastRelease: Duration?

    public init(minimumInterval: Duration = .seconds(1)) {
        self.init(minimumInterval: minimumInterval, clock: ContinuousClock())
    }

    /// `clock` is what the spacing is measured and waited on: the real one in the apps, a hand-moved one in tests.
    public init<C: Clock>(minimumInterval: Duration, clock: C) where C.Duration == Duration {
        self.minimumInterval = minimumInterval
        self.clock = ElapsedTime(clock)
    }

    /// Returns when the caller may send its request, and the moment it was let through (on the limiter's
    /// clock, since the limiter was made). Cancellation ends the wait early without using a turn, so callers
    /// check for cancellation before sending.
    @discardableResult
    public func wait() async -> Duration {
        // Spacing is measured from actual releases, not planned slots: a waiter that wakes late (a busy
        // machine) must not let the next one through early. Waiters that wake together re-check here.
        while let last = lastRelease, clock.now() < last + minimumInterval {
            try? await clock.sleep(last + minimumInterval)
            if Task.isCancelled { return clock.now() }
        }
        let now = clock.now()
        lastRelease = now
        return now
    }
}

/// A clock read as time since the limiter was made, so the limiter's type does not depend on which clock it reads.
private struct ElapsedTime: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }
}

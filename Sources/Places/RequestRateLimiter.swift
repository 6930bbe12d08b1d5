/// Lets callers through at least `minimumInterval` apart.
///
/// Nominatim's usage policy allows one request per second for the whole application, so every
/// geocoder shares `shared` unless a test gives it its own.
public actor RequestRateLimiter {
    public static let shared = RequestRateLimiter()

    public let minimumInterval: Duration
    private let clock = ContinuousClock()
    /// When the last caller was let through; nil before the first.
    private var lastRelease: ContinuousClock.Instant?

    public init(minimumInterval: Duration = .seconds(1)) {
        self.minimumInterval = minimumInterval
    }

    /// Returns when the caller may send its request, and the moment it was let through.
    /// Cancellation ends the wait early without using a turn, so callers check for cancellation before sending.
    @discardableResult
    public func wait() async -> ContinuousClock.Instant {
        // Spacing is measured from actual releases, not planned slots: a waiter that wakes late (a busy
        // machine) must not let the next one through early. Waiters that wake together re-check here.
        while let last = lastRelease, clock.now < last.advanced(by: minimumInterval) {
            try? await Task.sleep(until: last.advanced(by: minimumInterval), clock: clock)
            if Task.isCancelled { return clock.now }
        }
        let now = clock.now
        lastRelease = now
        return now
    }
}

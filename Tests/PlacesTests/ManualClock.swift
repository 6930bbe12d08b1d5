import Foundation
import XCTest

/// A clock that moves only when a test calls `advance(by:)`: what is timed against it cannot race the machine.
final class ManualClock: Clock, @unchecked Sendable {
    // @unchecked: `current` is guarded by `lock` (an NSLock, which ThreadSanitizer understands; `Mutex` is not).
    struct Instant: InstantProtocol {
        var sinceStart: Duration
        func advanced(by duration: Duration) -> Instant { Instant(sinceStart: sinceStart + duration) }
        func duration(to other: Instant) -> Duration { other.sinceStart - sinceStart }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.sinceStart < rhs.sinceStart }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, Error>
    }

    private struct State {
        var now = Instant(sinceStart: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var sleepsStarted = 0
        var lastID = 0
    }

    private let lock = NSLock()
    private var current = State()

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { body(&current) }
    }

    var now: Instant { withState { $0.now } }
    var minimumResolution: Duration { .zero }
    /// Sleeps begun (not those whose deadline had already passed).
    var sleepsStarted: Int { withState { $0.sleepsStarted } }
    var sleeping: Int { withState { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = withState { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                withState { state in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else if deadline <= state.now {
                        continuation.resume()
                    } else {
                        state.sleepsStarted += 1
                        state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            withState { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes every sleeper whose deadline it reaches.
    func advance(by duration: Duration) {
        let woken = withState { state in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once `count` tasks sleep on this clock; fails the test if they do not within `seconds` of real time.
    func waitUntilSleeping(_ count: Int, seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) async {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while sleeping < count {
            guard ContinuousClock.now < deadline else {
                return XCTFail("\(sleeping) of \(count) callers sleep on the clock", file: file, line: line)
            }
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

import Foundation
import Synchronization

/// The store's location revision, read from the database at most once per `maximumAge` instead of once per
/// list request. This server's own writes call `invalidate()`, so it always lists what it just wrote;
/// writes through other servers sharing the database (or `user remove`) show within `maximumAge`.
final class RevisionWatch: Sendable {
    private struct State {
        var value: Int64?
        var checkedAt: ContinuousClock.Instant?
        /// Bumped by `invalidate()`; a read started before a bump is never taken as fresh.
        var generation = 0
        var pending: (generation: Int, task: Task<Int64, any Error>)?
    }

    private let state = Mutex(State())
    private let maximumAge: Duration
    private let read: @Sendable () async throws -> Int64

    init(maximumAge: Duration, read: @escaping @Sendable () async throws -> Int64) {
        self.maximumAge = maximumAge
        self.read = read
    }

    func current() async throws -> Int64 {
        let now = ContinuousClock.now
        let (known, task, generation) = state.withLock { state -> (Int64?, Task<Int64, any Error>?, Int) in
            if let value = state.value, let checkedAt = state.checkedAt, now - checkedAt < maximumAge {
                return (value, nil, state.generation)
            }
            if let pending = state.pending, pending.generation == state.generation {
                return (nil, pending.task, state.generation)
            }
            let task = Task { [read] in try await read() }
            state.pending = (state.generation, task)
            return (nil, task, state.generation)
        }
        if let known { return known }
        let value = try await task!.value
        state.withLock { state in
            if state.pending?.generation == generation { state.pending = nil }
            if state.generation == generation { (state.value, state.checkedAt) = (value, now) }
        }
        return value
    }

    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.checkedAt = nil
        }
    }
}

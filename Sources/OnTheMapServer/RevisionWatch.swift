import Foundation
import Synchronization

/// The store's location revision, read from the database at most once per `maximumAge` instead of once per
/// list request. This server's own writes call `advance(to:)` (or `invalidate()`) before they are answered,
/// so it always lists what it just wrote; writes through other servers sharing the database (or
/// `user remove`) show within `maximumAge`.
final class RevisionWatch: Sendable {
    private struct Read {
        var generation: Int
        var startedAt: ContinuousClock.Instant
        var task: Task<Int64, any Error>
    }

    private struct State {
        var value: Int64?
        var checkedAt: ContinuousClock.Instant?
        /// Bumped by `invalidate()`; a read started before a bump is never taken as fresh.
        var generation = 0
        var pending: Read?
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
        let (known, read) = state.withLock { state -> (Int64?, Read?) in
            if let value = state.value, let checkedAt = state.checkedAt, now - checkedAt < maximumAge {
                return (value, nil)
            }
            return (nil, startRead(&state, at: now))
        }
        if let known { return known }
        return try await finish(read!)
    }

    /// The revision `current()` would return without waiting for the database, or nil if it would wait.
    /// For `CachedListHandler`, which answers on the event loop. Past half its age, the value is read again
    /// in the background, so that steady traffic never finds it expired.
    func currentIfFresh() -> Int64? {
        let now = ContinuousClock.now
        let (value, refresh) = state.withLock { state -> (Int64?, Read?) in
            guard let value = state.value, let checkedAt = state.checkedAt, now - checkedAt < maximumAge else {
                return (nil, nil)
            }
            let due = now - checkedAt >= maximumAge / 2 && state.pending?.generation != state.generation
            return (value, due ? startRead(&state, at: now) : nil)
        }
        if let refresh { Task { _ = try? await finish(refresh) } }
        return value
    }

    /// Makes `revision`, read from the store after a write, current at once (unless a later one already is).
    func advance(to revision: Int64) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.generation += 1 // a read started before the write must not replace this
            state.value = max(state.value ?? revision, revision)
            state.checkedAt = now
        }
    }

    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.checkedAt = nil
        }
    }

    /// The read in flight for this generation, or a new one.
    private func startRead(_ state: inout State, at now: ContinuousClock.Instant) -> Read {
        if let pending = state.pending, pending.generation == state.generation { return pending }
        let read = Read(generation: state.generation, startedAt: now, task: Task { [read] in try await read() })
        state.pending = read
        return read
    }

    private func finish(_ read: Read) async throws -> Int64 {
        defer {
            state.withLock { state in
                if state.pending?.task == read.task { state.pending = nil }
            }
        }
        let value = try await read.task.value
        state.withLock { state in
            // Fresh from when the read started, unless a write invalidated it meanwhile.
            if state.generation == read.generation { (state.value, state.checkedAt) = (value, read.startedAt) }
        }
        return value
    }
}

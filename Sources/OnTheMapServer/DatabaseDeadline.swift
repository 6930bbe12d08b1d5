import Foundation
import Synchronization

/// Bounds every database call in time, so a request fails with a 503 within `limit` when the database is gone
/// (postgres-nio waits for a connection as long as it is asked to). After a call runs out of time, calls fail at
/// once for `pause`, so requests queued behind a dead database do not each wait the whole limit; then they try again,
/// and the first that succeeds is the recovery.
final class DatabaseDeadline: Sendable {
    let limit: Duration
    let pause: Duration
    private let unavailableUntil = Mutex<ContinuousClock.Instant?>(nil)

    init(limit: Duration = .seconds(5), pause: Duration = .seconds(1)) {
        self.limit = limit
        self.pause = pause
    }

    /// `operation`'s result, or `StoreError.unavailable` once `limit` passes (the operation is then cancelled).
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        if let until = unavailableUntil.withLock({ $0 }), ContinuousClock.now < until { throw StoreError.unavailable }
        // Not a task group: a group would wait for a hung operation to finish before returning.
        let call = Call<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.waiting.withLock { $0 = continuation }
                let work = Task {
                    let result = await Result(catching: operation)
                    call.waiting.withLock { $0.take() }?.resume(with: result)
                    call.timer.withLock { $0 }?.cancel()
                }
                call.work.withLock { $0 = work }
                call.timer.withLock {
                    $0 = Task { [self] in
                        try? await Task.sleep(for: limit)
                        guard let waiting = call.waiting.withLock({ $0.take() }) else { return }
                        unavailableUntil.withLock { $0 = .now + pause }
                        work.cancel()
                        waiting.resume(throwing: StoreError.unavailable)
                    }
                }
            }
        } onCancel: {
            // The caller gave up (a graceful shutdown, a closed connection): so does the call.
            call.waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
            call.work.withLock { $0 }?.cancel()
            call.timer.withLock { $0 }?.cancel()
        }
    }

    /// One call's caller, resumed once by whichever comes first, and its timer.
    private final class Call<T: Sendable>: Sendable {
        let waiting = Mutex<CheckedContinuation<T, any Error>?>(nil)
        let timer = Mutex<Task<Void, Never>?>(nil)
        let work = Mutex<Task<Void, Never>?>(nil)
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

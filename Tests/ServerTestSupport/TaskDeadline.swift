import Foundation

/// Whether `task` ends within `limit`. A server that does not stop then fails its test, naming the cause,
/// instead of hanging the whole run.
public func ends(_ task: Task<Void, any Error>, within limit: Duration) async -> Bool {
    var timer: Task<Void, Never>?
    let ended = await withCheckedContinuation { continuation in
        let once = Once(continuation)
        Task { _ = await task.result; once.resume(true) }
        timer = Task { try? await Task.sleep(for: limit); once.resume(false) }
    }
    timer?.cancel()
    return ended
}

/// Resumes a continuation once, whichever of two tasks comes first.
private final class Once: @unchecked Sendable { // the lock guards `continuation`
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?
    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }
    func resume(_ value: Bool) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(returning: value)
    }
}

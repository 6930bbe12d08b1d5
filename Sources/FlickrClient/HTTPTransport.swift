import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// One request with a whole-request deadline of `timeout` seconds, cancelled with the calling task.
    ///
    /// The deadline is enforced here because swift-corelibs-foundation truncates time-outs to whole
    /// seconds (0.5 s becomes "fail at once", 1.5 s becomes 1 s). URLSession's own time-out stays as a
    /// backstop a little later.
    func data(for request: URLRequest, timeout: TimeInterval) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.timeoutInterval = Self.backstop(for: timeout)
        let handle = DataTaskHandle()
        let timer = Task {
            try await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
            handle.expire()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                let task = dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: handle.hasExpired ? URLError(.timedOut) : error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: FlickrError.invalidResponse(.notHTTP))
                    }
                }
                if handle.start(task) {
                    task.resume()
                } else {
                    continuation.resume(throwing: handle.hasExpired ? URLError(.timedOut) : CancellationError())
                }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// URLSession's own time-out: whole seconds, after our deadline.
    static func backstop(for timeout: TimeInterval) -> TimeInterval {
        max(1, timeout.rounded(.up) + 1)
    }
}

/// The data task of one request, so cancellation and the deadline, arriving from other threads, can reach it.
private final class DataTaskHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isStopped = false
    private var expired = false

    /// Records `task`; `false` when it was cancelled or expired already (then don't start it).
    func start(_ task: URLSessionDataTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return false }
        self.task = task
        return true
    }

    func cancel() {
        stop(expiring: false)
    }

    /// The deadline passed: cancel, and report a time-out rather than a cancellation.
    func expire() {
        stop(expiring: true)
    }

    var hasExpired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return expired
    }

    private func stop(expiring: Bool) {
        lock.lock()
        if !isStopped {
            isStopped = true
            expired = expiring
        }
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

/// Request headers shared by searches and downloads.
enum HTTPHeaders {
    static func apply(to request: inout URLRequest, userAgent: String) {
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
    }
}

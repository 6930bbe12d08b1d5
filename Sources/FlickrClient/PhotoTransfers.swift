import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Limits on one photo request: how long it may go without a byte, when it must be done, how
/// large its body may be.
struct TransferLimits: Sendable {
    var stallTimeout: TimeInterval
    /// Absolute deadline (`DispatchTime` nanoseconds).
    var deadline: UInt64
    var maxBytes: Int
}

/// Photo requests streamed through a URLSession delegate, so a stalled server, a missed deadline or
/// an oversized body is noticed while it happens — before a body is read whole, and without
/// URLSession's whole-second time-outs.
final class PhotoTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `transfers` is guarded by `lock`; each Transfer's fields likewise.
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    private var session: URLSession!

    init(configuration: URLSessionConfiguration) {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    func invalidate() {
        session.invalidateAndCancel()
    }

    /// The body and response of `request`, or the reason there is none: `FlickrError.stalled`,
    /// `.timedOut` (deadline), `.photoTooLarge`, `CancellationError`, or URLSession's error.
    func fetch(_ request: URLRequest, limits: TransferLimits) async throws -> (Data, HTTPURLResponse) {
        let task = session.dataTask(with: request)
        let transfer = Transfer(task: task, limits: limits)
        let watchdog = Task { [weak transfer] in
            // A quarter of a second is fine enough for 10-second stalls and 20-second deadlines.
            while let transfer, !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 250_000_000)
                transfer.checkLimits()
            }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                transfers[task.taskIdentifier] = transfer
                lock.unlock()
                if transfer.start(continuation) {
                    task.resume()
                } else {
                    lock.lock()
                    transfers[task.taskIdentifier] = nil
                    lock.unlock()
                }
            }
        } onCancel: {
            transfer.stop(because: CancellationError())
        }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        lock.lock()
        defer { lock.unlock() }
        return transfers[task.taskIdentifier]
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(for: dataTask) else { return completionHandler(.cancel) }
        completionHandler(transfer.received(response) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let transfer = transfers.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        transfer?.finish(error: error)
    }
}

/// One request's state, touched by the delegate queue, the watchdog and cancellation.
private final class Transfer: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    private let lock = NSLock()
    private let task: URLSessionDataTask
    private let limits: TransferLimits
    private var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
    private var body = Data()
    private var response: HTTPURLResponse?
    private var lastProgress = DispatchTime.now().uptimeNanoseconds
    /// Why we stopped it, reported instead of URLSession's "cancelled".
    private var stopReason: (any Error)?
    private var finished = false

    init(task: URLSessionDataTask, limits: TransferLimits) {
        self.task = task
        self.limits = limits
    }

    /// Records the continuation; false if the transfer was already stopped (then it is resumed here).
    func start(_ continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) -> Bool {
        lock.lock()
        if let reason = stopReason {
            finished = true
            lock.unlock()
            continuation.resume(throwing: reason)
            return false
        }
        self.continuation = continuation
        lastProgress = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
        return true
    }

    /// Headers arrived: refuse at once a body announced larger than the limit.
    func received(_ response: URLResponse) -> Bool {
        lock.lock()
        self.response = response as? HTTPURLResponse
        lastProgress = DispatchTime.now().uptimeNanoseconds
        let announced = response.expectedContentLength
        lock.unlock()
        if announced > Int64(limits.maxBytes) {
            stop(because: FlickrError.photoTooLarge(limit: limits.maxBytes))
            return false
        }
        return true
    }

    func received(_ data: Data) {
        lock.lock()
        body.append(data)
        lastProgress = DispatchTime.now().uptimeNanoseconds
        let tooLarge = body.count > limits.maxBytes
        if tooLarge { body = Data() } // nothing more of it is kept
        lock.unlock()
        if tooLarge { stop(because: FlickrError.photoTooLarge(limit: limits.maxBytes)) }
    }

    func checkLimits() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        let idle = Double(now &- lastProgress) / 1e9
        lock.unlock()
        if now >= limits.deadline {
            stop(because: FlickrError.timedOut)
        } else if idle >= limits.stallTimeout {
            stop(because: FlickrError.stalled)
        }
    }

    /// Cancels the request; it then completes with `reason`.
    func stop(because reason: any Error) {
        lock.lock()
        if stopReason == nil, !finished { stopReason = reason }
        lock.unlock()
        task.cancel()
    }

    func finish(error: (any Error)?) {
        lock.lock()
        guard !finished, let continuation else {
            finished = true
            lock.unlock()
            return
        }
        finished = true
        self.continuation = nil
        let outcome: Result<(Data, HTTPURLResponse), any Error>
        if let reason = stopReason {
            outcome = .failure(reason)
        } else if let error {
            outcome = .failure(error)
        } else if let response {
            outcome = .success((body, response))
        } else {
            outcome = .failure(FlickrError.invalidResponse(.notHTTP))
        }
        body = Data()
        lock.unlock()
        continuation.resume(with: outcome)
    }
}

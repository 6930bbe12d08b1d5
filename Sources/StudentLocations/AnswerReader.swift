import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One answer as `AnswerReader` read it: the body, or its first `byteLimit` bytes when `isCutOff`.
struct Answer: Sendable {
    var body: Data
    var response: URLResponse
    /// The server sent more than the reader's limit: `body` holds the start, and reading stopped there.
    var isCutOff: Bool
}

/// The URLSession delegate that reads each answer's body up to `byteLimit` bytes and then cancels the download, so a
/// service that sends 60 MB costs a few MB. `URLSession.data(for:)` reads everything and keeps it in memory, and
/// swift-corelibs-foundation has no `bytes(for:)` to stop early with, nor a way to pause a transfer: what arrives
/// before the cancellation lands (little, unless over loopback) is dropped as it comes.
final class AnswerReader: NSObject, URLSessionDataDelegate, Sendable {
    let byteLimit: Int
    private let reading = Mutex<[Int: Reading]>([:])

    private struct Reading {
        var body = Data()
        var isCutOff = false
        let continuation: CheckedContinuation<Answer, any Error>
    }

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// Sends `request` on `session` (made with this reader as its delegate); throws what URLSession reports
    /// (`URLError.cancelled` when the calling task is cancelled).
    func answer(to request: URLRequest, in session: URLSession) async throws -> Answer {
        try Task.checkCancellation()
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                reading.withLock { $0[task.taskIdentifier] = Reading(continuation: continuation) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let reachedLimit = reading.withLock { readings -> Bool in
            guard var current = readings[dataTask.taskIdentifier], !current.isCutOff else { return false }
            readings[dataTask.taskIdentifier] = nil // so appending below doesn't copy the body
            let room = byteLimit - current.body.count
            current.body.append(data.prefix(room))
            current.isCutOff = data.count > room
            readings[dataTask.taskIdentifier] = current
            return current.isCutOff
        }
        if reachedLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = reading.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        // Cancelled by `urlSession(_:dataTask:didReceive:)` at the limit: what was read is the answer.
        if let error, !finished.isCutOff {
            finished.continuation.resume(throwing: error)
        } else if let response = task.response {
            finished.continuation.resume(returning: Answer(body: finished.body, response: response,
                                                           isCutOff: finished.isCutOff))
        } else {
            finished.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

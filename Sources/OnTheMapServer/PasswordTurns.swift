import Foundation
import Synchronization

/// Turns at bcrypt, per client: each client (address) has at most `perClient` logins or sign-ups past their limit
/// check at a time, and at most `waitingPerClient` more wait their turn; beyond that it is told to come back. So one
/// client's burst queues behind itself, not in front of everyone else's on the thread pool, and a limit checked at
/// the turn is never outrun by requests sent at once.
final class PasswordTurns: Sendable {
    private struct Lane {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let perClient: Int
    let waitingPerClient: Int
    private let lanes = Mutex<[String: Lane]>([:])

    init(perClient: Int = 2, waitingPerClient: Int = 64) {
        self.perClient = max(1, perClient)
        self.waitingPerClient = max(0, waitingPerClient)
    }

    /// Runs `body` (a limit check, then bcrypt) once `client` has a free place; throws a 429 `APIError` if its queue
    /// is full.
    func withTurn<T: Sendable>(for client: String, _ body: () async throws -> T) async throws -> T {
        try await enter(client)
        defer { leave(client) }
        return try await body()
    }

    private enum Entry { case now, wait, refused }

    private func enter(_ client: String) async throws {
        let entry: Entry = lanes.withLock { lanes in
            var lane = lanes[client] ?? Lane()
            defer { lanes[client] = lane }
            if lane.running < perClient {
                lane.running += 1
                return .now
            }
            return lane.waiting.count < waitingPerClient ? .wait : .refused
        }
        switch entry {
        case .now: return
        case .refused:
            throw APIError.tooManyAttempts(retryAfter: 1, "Too many logins or sign-ups came from your address at once.")
        case .wait:
            // The place is handed over by `leave`, which counts it as running before resuming.
            await withCheckedContinuation { continuation in
                let handedOver: Bool = lanes.withLock { lanes in
                    var lane = lanes[client] ?? Lane()
                    defer { lanes[client] = lane }
                    if lane.running < perClient {
                        lane.running += 1
                        return true
                    }
                    lane.waiting.append(continuation)
                    return false
                }
                if handedOver { continuation.resume() }
            }
        }
    }

    private func leave(_ client: String) {
        let next: CheckedContinuation<Void, Never>? = lanes.withLock { lanes in
            guard var lane = lanes[client] else { return nil }
            if lane.waiting.isEmpty {
                lane.running -= 1
                lanes[client] = lane.running == 0 ? nil : lane
                return nil
            }
            let next = lane.waiting.removeFirst()
            lanes[client] = lane // `running` stays: the place passes to `next`
            return next
        }
        next?.resume()
    }
}

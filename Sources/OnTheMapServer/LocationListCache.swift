import Foundation
import NIOCore
import Synchronization

/// Encoded `GET /v1/StudentLocation` answers, keyed by query and valid for one store revision. Reading the
/// revision is one tiny query; reading and encoding 100 locations is most of the cost of a list, and lists
/// dominate traffic. Bodies are kept as ByteBuffers, which responses share without copying. After a write, the
/// first request for a query computes it and the others wait for that.
final class LocationListCache: Sendable {
    private struct Entry {
        var revision: Int64
        var body: Task<ByteBuffer, any Error>
        /// The body once computed, for `readyBody`, which cannot wait for the task.
        var ready: ByteBuffer?
    }

    private let entries = Mutex<[LocationQuery: Entry]>([:])
    private static let capacity = 64

    /// The body for `query` at `revision`, computed by `compute` once per revision. `revision` must be read
    /// before `compute` reads the rows: a write in between then only makes the entry stale sooner.
    func body(for query: LocationQuery, revision: Int64,
              compute: @escaping @Sendable () async throws -> ByteBuffer) async throws -> ByteBuffer {
        let task = entries.withLock { entries -> Task<ByteBuffer, any Error> in
            if let entry = entries[query], entry.revision >= revision { return entry.body }
            if entries.count >= Self.capacity && entries[query] == nil {
                entries = entries.filter { $0.value.revision >= revision } // older revisions go first
                if entries.count >= Self.capacity { entries.removeAll() }
            }
            let task = Task { [self] in
                let body = try await compute()
                self.entries.withLock { entries in
                    if entries[query]?.revision == revision { entries[query]?.ready = body }
                }
                return body
            }
            entries[query] = Entry(revision: revision, body: task)
            return task
        }
        do {
            return try await task.value
        } catch {
            entries.withLock { entries in
                if entries[query]?.revision == revision { entries[query] = nil } // let the next request retry
            }
            throw error
        }
    }

    /// The body for `query` if one is already computed for `revision` (or later), without waiting.
    func readyBody(for query: LocationQuery, revision: Int64) -> ByteBuffer? {
        entries.withLock { entries in
            guard let entry = entries[query], entry.revision >= revision else { return nil }
            return entry.ready
        }
    }
}

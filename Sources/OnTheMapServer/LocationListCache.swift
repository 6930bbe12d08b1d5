import Foundation
import NIOCore
import Synchronization

/// Encoded `GET /v1/StudentLocation` answers, keyed by query and valid for one store revision. Reading the
/// revision is one tiny query; reading and encoding 100 locations is most of the cost of a list, and lists
/// dominate traffic. Bodies are kept as ByteBuffers, which responses share without copying.
///
/// A query's last computed body stays ready while a newer one is computed, so that `LocationLists` can encode
/// the new lists after a write before it makes the new revision current: readers never wait for a write.
final class LocationListCache: Sendable {
    private struct Entry {
        /// The revision `body` computes.
        var revision: Int64
        var body: Task<ByteBuffer, any Error>
        /// The latest body computed, for `readyBody`, which cannot wait for the task. It may be older than
        /// `revision` while a newer body is computed.
        var ready: (revision: Int64, body: ByteBuffer)?
        /// Whether a request asked for this query since its body was last computed ahead of demand.
        var asked: Bool
    }

    private let entries = Mutex<[LocationQuery: Entry]>([:])
    private static let capacity = 64

    /// The body for `query` at `revision`, computed by `compute` once per revision. `revision` must be read
    /// before `compute` reads the rows: a write in between then only makes the entry stale sooner.
    /// `asked` is false when the body is computed ahead of any request (`LocationLists.didWrite()`).
    func body(for query: LocationQuery, revision: Int64, asked: Bool = true,
              compute: @escaping @Sendable () async throws -> ByteBuffer) async throws -> ByteBuffer {
        let task = entries.withLock { entries -> Task<ByteBuffer, any Error> in
            if let entry = entries[query], entry.revision >= revision {
                if asked { entries[query]?.asked = true }
                return entry.body
            }
            if entries.count >= Self.capacity && entries[query] == nil {
                entries = entries.filter { $0.value.revision >= revision } // older revisions go first
                if entries.count >= Self.capacity { entries.removeAll() }
            }
            let task = Task { [self] in
                let body = try await compute()
                self.entries.withLock { entries in
                    if let ready = entries[query]?.ready, ready.revision >= revision { return }
                    entries[query]?.ready = (revision, body)
                }
                return body
            }
            entries[query] = Entry(revision: revision, body: task, ready: entries[query]?.ready,
                                   asked: asked || entries[query]?.asked == true)
            return task
        }
        do {
            return try await task.value
        } catch {
            entries.withLock { entries in
                guard entries[query]?.revision == revision else { return }
                if let ready = entries[query]?.ready { // keep what is still ready; the next request retries
                    entries[query]?.revision = ready.revision
                    entries[query]?.body = Task { ready.body }
                } else {
                    entries[query] = nil
                }
            }
            throw error
        }
    }

    /// The body for `query` if one is already computed for `revision` (or later), without waiting.
    func readyBody(for query: LocationQuery, revision: Int64) -> ByteBuffer? {
        entries.withLock { entries in
            guard let entry = entries[query], let ready = entry.ready, ready.revision >= revision else { return nil }
            if !entry.asked { entries[query]?.asked = true } // written once per refresh, not per request
            return ready.body
        }
    }

    /// Up to `limit` queries requests asked for since their bodies were last computed ahead of demand: the
    /// ones worth encoding again after a write. Their `asked` mark is cleared.
    func takeAskedQueries(limit: Int) -> [LocationQuery] {
        entries.withLock { entries in
            let asked = entries.filter(\.value.asked).map(\.key).prefix(limit)
            for query in asked { entries[query]?.asked = false }
            return Array(asked)
        }
    }
}

import Foundation
import Synchronization

/// Encoded `GET /v1/StudentLocation` answers, keyed by query and valid for one store revision. Reading the
/// revision is one tiny query; encoding 100 locations is most of the cost of a list, and lists dominate traffic.
final class LocationListCache: Sendable {
    private struct Entry {
        var revision: Int64
        var body: Data
    }

    private let entries = Mutex<[LocationQuery: Entry]>([:])
    private static let capacity = 64

    func body(for query: LocationQuery, revision: Int64) -> Data? {
        entries.withLock { entries in
            guard let entry = entries[query], entry.revision == revision else { return nil }
            return entry.body
        }
    }

    /// `revision` must be read before the rows: then a write in between only makes the entry stale sooner.
    func store(_ body: Data, for query: LocationQuery, revision: Int64) {
        entries.withLock { entries in
            if entries.count >= Self.capacity && entries[query] == nil {
                entries = entries.filter { $0.value.revision == revision } // drop entries of older revisions first
                if entries.count >= Self.capacity { entries.removeAll() }
            }
            entries[query] = Entry(revision: revision, body: body)
        }
    }
}

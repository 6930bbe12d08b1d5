import Foundation
import NIOCore
import NIOFoundationCompat
import OnTheMapAPI

/// `GET /v1/StudentLocation`'s encoded answers for the list route and `CachedListHandler`: the store's
/// revision (`RevisionWatch`) keys the encoded lists (`LocationListCache`).
struct LocationLists: Sendable {
    let store: any StudentStore
    let cache: LocationListCache
    let revisions: RevisionWatch
    /// Lists are what most requests ask for; other servers' writes may take `maximumAge` to show here.
    init(store: any StudentStore, maximumAge: Duration = .milliseconds(100)) {
        self.store = store
        cache = LocationListCache()
        revisions = RevisionWatch(maximumAge: maximumAge) { try await store.locationsRevision() }
    }

    /// The list's JSON, from the cache when it is encoded for the current revision.
    func body(for query: LocationQuery) async throws -> ByteBuffer {
        let revision = try await revisions.current()
        return try await cache.body(for: query, revision: revision, compute: encoder(query))
    }

    private func encoder(_ query: LocationQuery) -> @Sendable () async throws -> ByteBuffer {
        { [store] in
            ByteBuffer(data: try JSONEncoder.onTheMap().encode(StudentLocationList(results: try await store.locations(query))))
        }
    }

    /// The list's JSON if it is already encoded for the current revision, without waiting.
    func readyBody(for query: LocationQuery) -> ByteBuffer? {
        guard let revision = revisions.currentIfFresh() else { return nil }
        return cache.readyBody(for: query, revision: revision)
    }

    /// Lists encoded again right after a write, before it is answered; others are encoded when next asked for.
    static let refreshedAfterWrite = 8

    /// Call after this server wrote a location, before answering the write: afterwards every list shows it, so
    /// the writer (and everyone after it) sees the write.
    ///
    /// The lists that were read since the last write are encoded for the new revision first, and only then
    /// is that revision made current; until then readers get the previous lists. That is still linearizable,
    /// since the write has not been answered yet, and it means 64 readers do not stall behind every write.
    /// If the revision cannot be read, the next list request reads it (and waits) instead.
    func didWrite() async {
        let revision: Int64
        do {
            revision = try await store.locationsRevision()
        } catch {
            revisions.invalidate()
            return
        }
        await withTaskGroup(of: Void.self) { group in
            for query in cache.takeAskedQueries(limit: Self.refreshedAfterWrite) {
                group.addTask { [cache] in
                    _ = try? await cache.body(for: query, revision: revision, asked: false, compute: encoder(query))
                }
            }
        }
        revisions.advance(to: revision)
    }
}

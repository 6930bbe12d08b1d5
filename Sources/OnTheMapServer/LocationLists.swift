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
        return try await cache.body(for: query, revision: revision) { [store] in
            ByteBuffer(data: try JSONEncoder.onTheMap().encode(StudentLocationList(results: try await store.locations(query))))
        }
    }

    /// The list's JSON if it is already encoded for the current revision, without waiting.
    func readyBody(for query: LocationQuery) -> ByteBuffer? {
        guard let revision = revisions.currentIfFresh() else { return nil }
        return cache.readyBody(for: query, revision: revision)
    }

    /// Call after this server wrote a location, before answering the write: the next list reads the new
    /// revision, so the writer (and everyone after it) sees the write.
    func didWrite() {
        revisions.invalidate()
    }
}

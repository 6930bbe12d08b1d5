import FlickrClient
import Foundation
import Logging
import TouristStore

/// Fetches pins' albums (search, placeholders, downloads), one run per pin that a second open joins; it owns
/// the rule that a moved or deleted pin cancels its downloads, so a run no longer current writes nothing.
@MainActor
public final class AlbumService {
    let store: any AlbumStore
    let searcher: any FlickrSearching
    let downloader: any PhotoDownloading
    /// Photos an album holds (one page of a search).
    public let albumSize: Int
    let logger: Logger

    private var activities: [Int64: AlbumActivity] = [:]
    var failedPhotos: [Int64: Set<Int64>] = [:]
    /// Why the pin's latest photo failed: what happened, and what to do.
    var photoProblems: [Int64: String] = [:]
    private var runs: [Int64: Run] = [:]
    private var observers: [UUID: @MainActor (Int64) -> Void] = [:]
    /// Downloaded photos on their way into the store, a write for each burst.
    let adoptions: PhotoAdoptions

    /// One fetch for one pin. Its token tells a current run from a cancelled or superseded one.
    struct Run {
        var token: UUID
        var task: Task<Void, Never>
        var pinWatch: StoreObservation?
        /// Where the pin was when the run started; a change means it moved.
        var location: (latitude: Double, longitude: Double)?
        var finished = 0
    }

    /// - parameter searcher: without an API key it fails with `.missingAPIKey`; albums then explain
    ///   how to add one.
    public init(store: any AlbumStore, searcher: any FlickrSearching, downloader: any PhotoDownloading,
                albumSize: Int, logger: Logger) {
        self.store = store
        self.searcher = searcher
        self.downloader = downloader
        self.albumSize = albumSize
        self.logger = logger
        adoptions = PhotoAdoptions(store: store)
    }

    // MARK: State

    public func activity(ofPin pinID: Int64) -> AlbumActivity {
        activities[pinID] ?? .idle
    }

    /// Photos of the album whose download failed (until retried).
    public func failedPhotoIDs(ofPin pinID: Int64) -> Set<Int64> {
        failedPhotos[pinID] ?? []
    }

    /// Why the album's latest failed photo failed, while any has: what happened, and what to do.
    public func photoProblem(ofPin pinID: Int64) -> String? {
        failedPhotos[pinID]?.isEmpty == false ? photoProblems[pinID] : nil
    }

    /// Whether every photo has arrived or failed and nothing runs: New Collection may replace it.
    public func isComplete(_ contents: AlbumContents, pinID: Int64) -> Bool {
        guard !activity(ofPin: pinID).isBusy, contents.album != nil else { return false }
        let failed = failedPhotoIDs(ofPin: pinID)
        return contents.photos.allSatisfy { photo in photo.filePath != nil || photo.id.map(failed.contains) == true }
    }

    /// Whether a New Collection can bring other photos (more than one page of results).
    public func hasOtherCollections(_ contents: AlbumContents) -> Bool {
        guard let album = contents.album else { return false }
        return AlbumPaging.lastReachablePage(pages: album.pages, perPage: album.perPage) > 1
    }

    /// `handler` is called with a pin's id whenever its activity or failed photos change.
    public func observe(_ handler: @escaping @MainActor (Int64) -> Void) -> UUID {
        let token = UUID()
        observers[token] = handler
        return token
    }

    public func stopObserving(_ token: UUID) {
        observers.removeValue(forKey: token)
    }

    // MARK: Commands

    /// Makes sure the pin has an album: searches if it never had one, downloads photos whose files
    /// are missing, and does nothing (no request) if everything is on disk. Joins a running fetch.
    public func ensureAlbum(ofPin pinID: Int64) {
        guard runs[pinID] == nil else { return }
        if case .failed = activity(ofPin: pinID) { setActivity(.idle, pinID) }
        start(pinID) { service, token in await service.completeAlbum(pinID, token: token) }
    }

    /// A pin just dropped: its search starts from the place its insert wrote, with no store read before the
    /// request; if the pin moves meanwhile the store refuses the album and `fetch` searches again.
    public func ensureAlbum(ofNewPin pin: Pin) {
        guard let pinID = pin.id, runs[pinID] == nil else { return }
        start(pinID) { service, token in await service.fetch(pinID, newCollection: false, token: token, dropped: pin) }
    }

    /// Downloads every photo of the album that failed, again (Try Again, when none could be downloaded).
    public func retryFailedPhotos(ofPin pinID: Int64) {
        guard runs[pinID] == nil else { return }
        failedPhotos.removeValue(forKey: pinID)
        photoProblems.removeValue(forKey: pinID)
        notify(pinID)
        ensureAlbum(ofPin: pinID)
    }

    /// Replaces the album with photos from another page of results, preferring ones not shown before.
    public func newCollection(ofPin pinID: Int64) {
        guard runs[pinID] == nil else { return }
        start(pinID) { service, token in await service.fetch(pinID, newCollection: true, token: token) }
    }

    /// Starts a new collection of photos taken in `years` (nil: any time); the album keeps that time, and New
    /// Collection stays within it. Whatever the album was doing stops.
    public func showPhotos(ofPin pinID: Int64, takenIn years: ClosedRange<Int>?) {
        if runs[pinID] != nil { cancel(pinID: pinID) }
        start(pinID) { service, token in
            await service.fetch(pinID, newCollection: true, token: token, takenIn: .chosen(years))
        }
    }

    /// Downloads one photo again, whatever made it fail: a failed download, or a file that turned
    /// out not to decode (it is replaced).
    public func retry(photoID: Int64, ofPin pinID: Int64) {
        guard runs[pinID] == nil else { return }
        failedPhotos[pinID]?.remove(photoID)
        notify(pinID)
        start(pinID) { service, token in await service.redownload(photoID: photoID, pinID: pinID, token: token) }
    }

    /// Stops the pin's search and downloads; nothing it was doing is written afterwards.
    public func cancel(pinID: Int64) {
        if let run = runs.removeValue(forKey: pinID) {
            run.task.cancel()
            run.pinWatch?.cancel()
        }
        failedPhotos.removeValue(forKey: pinID)
        photoProblems.removeValue(forKey: pinID)
        setActivity(.idle, pinID)
    }

    public func cancelAll() {
        for pinID in Array(runs.keys) { cancel(pinID: pinID) }
    }

    /// Waits for the pin's running fetch, if any (tests and benchmarks).
    public func waitUntilIdle(pinID: Int64) async {
        await runs[pinID]?.task.value
    }

    // MARK: Runs

    private func start(_ pinID: Int64, _ work: @escaping @MainActor (AlbumService, UUID) async -> Void) {
        let token = UUID()
        let task = Task { [weak self] in
            guard let self else { return }
            await work(self, token)
            // A cancelled run may finish after a new one started for the same pin: leave that one be.
            guard self.isCurrent(token, pinID) else { return }
            self.runs.removeValue(forKey: pinID)?.pinWatch?.cancel()
            if case .failed = self.activity(ofPin: pinID) {} else { self.setActivity(.idle, pinID) }
        }
        runs[pinID] = Run(token: token, task: task)
        runs[pinID]?.pinWatch = store.observePin(id: pinID, onError: { [weak self] error in
            self?.logger.error("Could not watch pin \(pinID): \(error.localizedDescription)")
        }, onChange: { [weak self] pin in
            self?.pinChanged(pin, pinID: pinID, token: token)
        })
    }

    /// A run's pin changed in the store: deleted, its run stops; moved meaningfully (`AlbumPlace`),
    /// its run stops and the album is fetched for the new place; nudged, the run goes on.
    private func pinChanged(_ pin: Pin?, pinID: Int64, token: UUID) {
        guard isCurrent(token, pinID) else { return }
        guard let pin else {
            logger.debug("Pin \(pinID) was deleted: its downloads stop")
            return cancel(pinID: pinID)
        }
        guard let location = runs[pinID]?.location else {
            runs[pinID]?.location = (pin.latitude, pin.longitude)
            return
        }
        guard !AlbumPlace.isSame(location, (pin.latitude, pin.longitude)) else { return }
        logger.debug("Pin \(pinID) moved: its downloads stop and its album follows it")
        cancel(pinID: pinID)
        ensureAlbum(ofPin: pinID)
    }

    func isCurrent(_ token: UUID, _ pinID: Int64) -> Bool {
        runs[pinID]?.token == token && !Task.isCancelled
    }

    /// Counts one more photo of the run as arrived or failed.
    func photoFinished(_ pinID: Int64, token: UUID, total: Int) {
        guard isCurrent(token, pinID) else { return }
        runs[pinID]?.finished += 1
        let finished = runs[pinID]?.finished ?? 0
        logger.trace("Pin \(pinID): \(finished) of \(total) photos done")
        setActivity(.downloading(finished: finished, total: total), pinID)
    }

    func startedDownloading(_ pinID: Int64, token: UUID, total: Int) {
        guard isCurrent(token, pinID) else { return }
        runs[pinID]?.finished = 0
        setActivity(.downloading(finished: 0, total: total), pinID)
    }

    /// Sets the pin's activity on behalf of a run, if that run is still the pin's current one.
    func setActivity(_ activity: AlbumActivity, _ pinID: Int64, token: UUID) {
        guard isCurrent(token, pinID) else { return }
        setActivity(activity, pinID)
    }

    private func setActivity(_ activity: AlbumActivity, _ pinID: Int64) {
        guard activities[pinID] != activity else { return }
        activities[pinID] = activity
        notify(pinID)
    }

    func notify(_ pinID: Int64) {
        for observer in observers.values { observer(pinID) }
    }
}

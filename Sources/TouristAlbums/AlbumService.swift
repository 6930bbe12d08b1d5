import FlickrClient
import Foundation
import Logging
import TouristStore

/// Fetches pins' albums: searches Flickr, puts the photos in the store (placeholders first), then
/// downloads each image and records its file as it arrives. One run per pin at a time; opening a
/// pin whose album is downloading joins that run. Coordinated on the main actor; the network, the
/// store and the disk are used off it.
@MainActor
public final class AlbumService {
    private let store: any AlbumStore
    private let searcher: any FlickrSearching
    private let downloader: any PhotoDownloading
    private let albumSize: Int
    private let logger: Logger

    private var activities: [Int64: AlbumActivity] = [:]
    private var failedPhotos: [Int64: Set<Int64>] = [:]
    private var runs: [Int64: (token: UUID, task: Task<Void, Never>)] = [:]
    private var observers: [UUID: @MainActor (Int64) -> Void] = [:]

    /// - parameter searcher: without an API key it fails with `.missingAPIKey`; albums then explain
    ///   how to add one.
    public init(store: any AlbumStore, searcher: any FlickrSearching, downloader: any PhotoDownloading,
                albumSize: Int, logger: Logger) {
        self.store = store
        self.searcher = searcher
        self.downloader = downloader
        self.albumSize = albumSize
        self.logger = logger
    }

    // MARK: State

    public func activity(ofPin pinID: Int64) -> AlbumActivity {
        activities[pinID] ?? .idle
    }

    /// Photos of the album whose download failed (until retried).
    public func failedPhotoIDs(ofPin pinID: Int64) -> Set<Int64> {
        failedPhotos[pinID] ?? []
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
        start(pinID) { service in await service.completeAlbum(pinID) }
    }

    /// Replaces the album with photos from another page of results, preferring ones not shown before.
    public func newCollection(ofPin pinID: Int64) {
        guard runs[pinID] == nil else { return }
        start(pinID) { service in await service.fetch(pinID, newCollection: true) }
    }

    /// Downloads one failed photo again.
    public func retry(photoID: Int64, ofPin pinID: Int64) {
        guard runs[pinID] == nil, failedPhotos[pinID]?.remove(photoID) != nil else { return }
        notify(pinID)
        start(pinID) { service in
            guard let contents = await service.contents(pinID),
                  let photo = contents.photos.first(where: { $0.id == photoID }) else { return }
            await service.download([photo], pinID: pinID)
        }
    }

    /// Stops the pin's search and downloads (e.g. the pin was deleted); partial files never remain.
    public func cancel(pinID: Int64) {
        downloader.cancel(group: Self.group(pinID))
        runs.removeValue(forKey: pinID)?.task.cancel()
        failedPhotos.removeValue(forKey: pinID)
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

    private func start(_ pinID: Int64, _ work: @escaping @MainActor (AlbumService) async -> Void) {
        let token = UUID()
        let task = Task { [weak self] in
            guard let self else { return }
            await work(self)
            // A cancelled run may finish after a new one started for the same pin: leave that one be.
            guard self.runs[pinID]?.token == token else { return }
            self.runs.removeValue(forKey: pinID)
            if case .failed = self.activity(ofPin: pinID) {} else { self.setActivity(.idle, pinID) }
        }
        runs[pinID] = (token, task)
    }

    private func completeAlbum(_ pinID: Int64) async {
        guard let contents = await contents(pinID) else { return }
        guard contents.album != nil else {
            await fetch(pinID, newCollection: false)
            return
        }
        let failed = failedPhotoIDs(ofPin: pinID)
        let missing = contents.photos.filter { $0.filePath == nil && !($0.id.map(failed.contains) ?? false) }
        if !missing.isEmpty {
            logger.debug("Resuming \(missing.count) downloads for pin \(pinID)")
            await download(missing, pinID: pinID)
        }
    }

    private func fetch(_ pinID: Int64, newCollection: Bool) async {
        setActivity(.searching, pinID)
        let store = self.store
        let albumSize = self.albumSize
        let pin: Pin
        let previous: Album?
        let seen: Set<String>
        do {
            let (found, album, seenIDs) = try await Self.background {
                (try store.pin(id: pinID), try store.album(ofPin: pinID), try store.seenFlickrIds(ofPin: pinID))
            }
            guard let found else { return }
            (pin, previous, seen) = (found, album, seenIDs)
        } catch {
            setActivity(.failed(AlbumProblem(kind: .other, title: "Photos Could Not Be Loaded",
                                             message: error.localizedDescription)), pinID)
            return
        }

        var page = 1
        if newCollection, let previous {
            page = AlbumPaging.randomPage(pages: previous.pages, perPage: previous.perPage, currentPage: previous.page)
        }
        let result: FlickrSearchPage
        do {
            result = try await searcher.searchPhotos(FlickrSearchQuery(latitude: pin.latitude, longitude: pin.longitude,
                                                                     page: page, perPage: albumSize))
        } catch {
            if error == .cancelled || Task.isCancelled { return }
            logger.warning("Search for pin \(pinID) failed: \(error.userMessage)")
            setActivity(.failed(AlbumProblem(error)), pinID)
            return
        }
        if Task.isCancelled { return }

        let chosen = newCollection
            ? AlbumPaging.preferringUnseen(result.photos, seen: seen, limit: albumSize)
            : Array(result.photos.prefix(albumSize))
        let rows = chosen.enumerated().map { index, photo in
            Photo(pinId: pinID, flickrId: photo.id, remoteURL: photo.imageURL.absoluteString,
                  ownerId: photo.owner, ownerName: photo.ownerName, title: photo.title, position: index)
        }
        let album = Album(pinId: pinID, page: result.page, pages: result.pages, total: result.total,
                          perPage: result.perPage)
        let inserted: [Photo]
        do {
            inserted = try await Self.background { try store.replaceAlbum(album, photos: rows) }
        } catch StoreError.pinNotFound {
            return // deleted while we searched
        } catch {
            setActivity(.failed(AlbumProblem(kind: .other, title: "Photos Could Not Be Saved",
                                             message: error.localizedDescription)), pinID)
            return
        }
        failedPhotos[pinID] = []
        logger.debug("Pin \(pinID): page \(result.page) of \(result.pages), \(inserted.count) photos")
        await download(inserted, pinID: pinID)
    }

    private func download(_ photos: [Photo], pinID: Int64) async {
        let store = self.store
        var requests: [PhotoDownloadRequest] = []
        var paths: [String: (id: Int64, path: String)] = [:]
        for photo in photos {
            guard let id = photo.id, let source = URL(string: photo.remoteURL) else { continue }
            let path = Self.relativePath(pinID: pinID, flickrID: photo.flickrId)
            requests.append(PhotoDownloadRequest(photoID: String(id), source: source,
                                                 destination: store.photoFileURL(relativePath: path)))
            paths[String(id)] = (id, path)
        }
        guard !requests.isEmpty else { return }
        let folder = store.photoFileURL(relativePath: Self.relativePath(pinID: pinID, flickrID: "x"))
            .deletingLastPathComponent()
        try? await Self.background {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        var finished = 0
        setActivity(.downloading(finished: 0, total: requests.count), pinID)
        for await event in downloader.download(requests, group: Self.group(pinID)) {
            guard let target = paths[event.photoID] else { continue }
            switch event.result {
            case .success(let file):
                do {
                    try await Self.background { try store.setPhotoFile(id: target.id, relativePath: target.path) }
                } catch {
                    // The photo (or its pin) went while it downloaded: its file must not linger.
                    try? FileManager.default.removeItem(at: file)
                }
            case .failure(.cancelled):
                break
            case .failure(let error):
                logger.info("Photo \(target.id) of pin \(pinID) failed: \(error.userMessage)")
                failedPhotos[pinID, default: []].insert(target.id)
            }
            if Task.isCancelled { break }
            finished += 1
            setActivity(.downloading(finished: finished, total: requests.count), pinID)
        }
    }

    private func contents(_ pinID: Int64) async -> AlbumContents? {
        let store = self.store
        do {
            return try await Self.background { try store.albumContents(ofPin: pinID) }
        } catch {
            logger.error("Could not read the album of pin \(pinID): \(error.localizedDescription)")
            return nil
        }
    }

    // MARK: Helpers

    private func setActivity(_ activity: AlbumActivity, _ pinID: Int64) {
        guard activities[pinID] != activity else { return }
        activities[pinID] = activity
        notify(pinID)
    }

    private func notify(_ pinID: Int64) {
        for observer in observers.values { observer(pinID) }
    }

    static func group(_ pinID: Int64) -> String { "pin-\(pinID)" }

    /// `photos/<pin>/<flickr id>.jpg`, with anything unusual in the id replaced.
    static func relativePath(pinID: Int64, flickrID: String) -> String {
        let safe = String(flickrID.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII ? Character(scalar) : "_"
        })
        return "\(AppDatabase.photosFolderName)/\(pinID)/\(safe.isEmpty ? "photo" : safe).jpg"
    }

    /// Runs blocking store or disk work off the main actor.
    private nonisolated static func background<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Task.detached(priority: .userInitiated) { try work() }.value
    }
}

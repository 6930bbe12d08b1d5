import FlickrClient
import Foundation
import TouristStore
import Translations

/// What one run does: search, replace the album, download and adopt photos. After every await a
/// run checks that it is still current (`isCurrent`): a cancelled or superseded run returns
/// without writing, and the store refuses an album searched for a place the pin has left.
extension AlbumService {
    func completeAlbum(_ pinID: Int64, token: UUID) async {
        guard let contents = await contents(pinID), isCurrent(token, pinID) else { return }
        guard contents.album != nil else {
            await fetch(pinID, newCollection: false, token: token)
            return
        }
        let failed = failedPhotoIDs(ofPin: pinID)
        let missing = contents.photos.filter { $0.filePath == nil && !($0.id.map(failed.contains) ?? false) }
        if !missing.isEmpty {
            logger.debug("Resuming \(missing.count) downloads for pin \(pinID)")
            await download(missing, pinID: pinID, token: token)
        }
    }

    func redownload(photoID: Int64, pinID: Int64, token: UUID) async {
        guard let contents = await contents(pinID), isCurrent(token, pinID),
              let photo = contents.photos.first(where: { $0.id == photoID }) else { return }
        await download([photo], pinID: pinID, token: token)
    }

    /// - parameter attempt: a search that came back after its pin moved is made again for the new
    ///   place (normally the pin watch restarts the run first; this covers a move the watch saw as
    ///   the pin's first place).
    /// - parameter dropped: the pin as its insert wrote it, for a pin just dropped (no album, nothing seen): it
    ///   is not read again before the first search.
    /// - parameter takenIn: the years to search; `.albums` keeps the album's own time (any time for a new one).
    func fetch(_ pinID: Int64, newCollection: Bool, token: UUID, attempt: Int = 1, dropped: Pin? = nil,
               takenIn period: SearchPeriod = .albums) async {
        setActivity(.searching, pinID, token: token)
        let store = self.store
        let known: (pin: Pin, previous: Album?, seen: Set<String>)
        if let dropped, attempt == 1 {
            known = (dropped, nil, [])
        } else {
            guard let read = await pinAndAlbum(pinID, token: token) else { return }
            known = read
        }
        let (pin, previous, seen) = known

        let years: ClosedRange<Int>?
        switch period {
        case .albums: years = previous?.takenYears
        case .chosen(let chosen): years = chosen
        }
        var page = 1
        // Another time starts from its first page; the same time goes on to another page.
        if newCollection, let previous, previous.takenYears == years {
            page = AlbumPaging.randomPage(pages: previous.pages, perPage: previous.perPage, currentPage: previous.page)
        }
        let result: FlickrSearchPage
        do {
            result = try await searcher.searchPhotos(FlickrSearchQuery(latitude: pin.latitude, longitude: pin.longitude,
                                                                     page: page, perPage: albumSize, takenYears: years))
        } catch {
            guard error != .cancelled, isCurrent(token, pinID) else { return }
            logger.warning("Search for pin \(pinID) failed: \(error.userMessage)")
            setActivity(.failed(AlbumProblem(error)), pinID, token: token)
            return
        }
        guard isCurrent(token, pinID) else { return }

        // Flickr can list the same photo twice in one page; an album holds it once.
        var ids: Set<String> = []
        let unique = result.photos.filter { ids.insert($0.id).inserted }
        let chosen = newCollection
            ? AlbumPaging.preferringUnseen(unique, seen: seen, limit: albumSize)
            : Array(unique.prefix(albumSize))
        let rows = chosen.enumerated().map { index, photo in
            Photo(pinId: pinID, flickrId: photo.id, remoteURL: photo.imageURL.absoluteString,
                  ownerId: photo.owner, ownerName: photo.ownerName, title: photo.title,
                  largeURL: photo.largeImageURL?.absoluteString, license: photo.license, position: index)
        }
        let album = Album(pinId: pinID, page: result.page, pages: result.pages, total: result.total,
                          perPage: result.perPage, takenYears: years)
        let searchedAt = (latitude: pin.latitude, longitude: pin.longitude)
        let inserted: [Photo]
        do {
            inserted = try await Self.background { try store.replaceAlbum(album, photos: rows, searchedAt: searchedAt) }
        } catch StoreError.pinMoved {
            // Moved while we searched: this album belongs to the old place.
            guard isCurrent(token, pinID), attempt < 3 else { return }
            return await fetch(pinID, newCollection: newCollection, token: token, attempt: attempt + 1, takenIn: period)
        } catch StoreError.pinNotFound {
            return // deleted while we searched
        } catch {
            setActivity(.failed(AlbumProblem(kind: .other, title: tr("Photos Could Not Be Saved"),
                                             message: error.localizedDescription)), pinID, token: token)
            return
        }
        guard isCurrent(token, pinID) else { return }
        failedPhotos[pinID] = []
        logger.debug("Pin \(pinID): page \(result.page) of \(result.pages), \(inserted.count) photos")
        await download(inserted, pinID: pinID, token: token)
    }

    /// Which years a run searches.
    enum SearchPeriod {
        /// The album's own time, any time for a pin without an album.
        case albums
        /// A time just chosen (nil: any time).
        case chosen(ClosedRange<Int>?)
    }

    /// The pin where the store has it now, its album and the photos its albums have shown; nil (the run stops) if
    /// it was deleted, the run is no longer current, or the store could not be read (said on the page).
    private func pinAndAlbum(_ pinID: Int64, token: UUID) async -> (pin: Pin, previous: Album?, seen: Set<String>)? {
        let store = self.store
        do {
            let (found, album, seen) = try await Self.background {
                (try store.pin(id: pinID), try store.album(ofPin: pinID), try store.seenFlickrIds(ofPin: pinID))
            }
            guard let found, isCurrent(token, pinID) else { return nil }
            return (found, album, seen)
        } catch {
            setActivity(.failed(AlbumProblem(kind: .other, title: tr("Photos Could Not Be Loaded"),
                                             message: error.localizedDescription)), pinID, token: token)
            return nil
        }
    }

    func download(_ photos: [Photo], pinID: Int64, token: UUID) async {
        var requests: [PhotoDownloadRequest] = []
        for photo in photos {
            guard let id = photo.id, let source = URL(string: photo.remoteURL) else { continue }
            requests.append(PhotoDownloadRequest(photoID: String(id), source: source))
        }
        guard !requests.isEmpty, isCurrent(token, pinID) else { return }
        let total = requests.count
        startedDownloading(pinID, token: token, total: total)
        await downloader.download(requests) { [weak self] event in
            await self?.received(event, pinID: pinID, token: token, total: total)
        }
    }

    /// One photo's outcome. A current run takes the staged file into the album (the store moves it
    /// in the write that records it); a stale run leaves it, and the downloader deletes it.
    private func received(_ event: PhotoDownloadEvent, pinID: Int64, token: UUID, total: Int) async {
        guard isCurrent(token, pinID), let photoID = Int64(event.photoID) else { return }
        switch event.result {
        case .success(let staged):
            do {
                _ = try await adoptions.adopt(StagedPhotoFile(photoID: photoID, file: staged.file,
                                                              fileExtension: staged.format.fileExtension),
                                              keep: staged.keep) // the grid's picture of it, from the check's decode
            } catch StoreError.photoNotFound {
                // Removed from the album while it downloaded: the staged file is simply not taken.
            } catch {
                logger.error("Photo \(photoID) of pin \(pinID) could not be saved: \(error.localizedDescription)")
                photoFailed(photoID, pinID: pinID, token: token, problem: error.localizedDescription)
            }
        case .failure(.cancelled):
            return
        case .failure(let error):
            logger.info("Photo \(photoID) of pin \(pinID) failed: \(error.userMessage)")
            photoFailed(photoID, pinID: pinID, token: token, problem: error.userMessage)
        }
        photoFinished(pinID, token: token, total: total)
    }

    private func photoFailed(_ photoID: Int64, pinID: Int64, token: UUID, problem: String) {
        guard isCurrent(token, pinID) else { return }
        failedPhotos[pinID, default: []].insert(photoID)
        photoProblems[pinID] = problem
    }

    func contents(_ pinID: Int64) async -> AlbumContents? {
        let store = self.store
        do {
            return try await Self.background { try store.albumContents(ofPin: pinID) }
        } catch {
            logger.error("Could not read the album of pin \(pinID): \(error.localizedDescription)")
            return nil
        }
    }

    /// Blocking store or disk work, run to its end even if cancelled (a write is all-or-nothing; callers check
    /// `isCurrent`), on a dispatch queue so it never holds a thread of the shared executor downloads resume on.
    nonisolated static func background<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            storeQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The store's own serial queue, with a thread of its own: on the global queue writes waited behind decodes.
    nonisolated private static let storeQueue = DispatchQueue(label: "VirtualTourist.AlbumService.store",
                                                              qos: .userInitiated)
}

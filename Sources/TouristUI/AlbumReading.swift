import CGtk
import Foundation
import GLibSwift
import TouristStore

/// What the album page needs from the store.
public protocol AlbumPageStore: Sendable {
    func albumContents(ofPin pinId: Int64) throws -> AlbumContents
    @MainActor
    func observeAlbum(ofPin pinId: Int64, onError: @escaping @MainActor (Error) -> Void,
                      onChange: @escaping @MainActor (AlbumContents) -> Void) -> StoreObservation
    func deletePhotoForUndo(id: Int64) throws -> PhotoDeletion?
    func undoPhotoDeletion(_ deletion: PhotoDeletion) throws
    func finishPhotoDeletion(_ deletion: PhotoDeletion) throws
    func photoFileURL(relativePath: String) -> URL
}

extension AppDatabase: AlbumPageStore {}

/// An album as it is on disk, read in one go off the main thread: its rows, and the grid-sized picture of each
/// of its downloaded photos. The album page builds its grid from it in one pass, so the album's first frame
/// shows its photos, not thirty squares that fill in over the next frames.
struct AlbumSnapshot: Sendable {
    let contents: AlbumContents
    /// By photo file (its data-folder-relative path); a photo whose file does not decode has none.
    let pictures: [String: PhotoPicture]

    /// The pictures are read (or decoded) as many at a time as Swift's executor has threads; none for the photos
    /// in `decodedAtDownload`, whose download's decode the grid takes instead. Kept pictures are read into `lent`
    /// images while there are some.
    static func read(pinID: Int64, store: any AlbumPageStore, thumbnails: ThumbnailCache?, side: Int32, scale: Int32,
                     decodedAtDownload: Set<Int64>, lent: LentImages?) async throws -> AlbumSnapshot {
        let contents = try store.albumContents(ofPin: pinID)
        let files = contents.photos.compactMap { photo in
            photo.id.map(decodedAtDownload.contains) == true ? nil : photo.filePath
        }
        let pictures = await withTaskGroup(of: (String, PhotoPicture?).self) { group in
            for relativePath in files {
                group.addTask(priority: .userInitiated) {
                    let path = store.photoFileURL(relativePath: relativePath).path
                    return (relativePath, PhotoPicture.load(relativePath: relativePath, path: path, side: side,
                                                            scale: scale, thumbnails: thumbnails, lent: lent))
                }
            }
            var pictures: [String: PhotoPicture] = [:]
            for await (relativePath, picture) in group { pictures[relativePath] = picture }
            return pictures
        }
        return AlbumSnapshot(contents: contents, pictures: pictures)
    }
}

/// A photo's picture at the grid's size, ready to paint, and where it came from.
struct PhotoPicture: Sendable {
    let picture: PaintablePicture
    let source: PhotoTile.Source

    /// Its kept picture (its pixels at the grid's size), else the photo at `path` decoded, and then kept;
    /// nil if the file is gone or does not decode; into one of `lent` while there are some. A file read, a decode and
    /// the conversion to cairo's pixel format: never on the main thread. `side` is in device pixels (`scale` per point).
    static func load(relativePath: String, path: String, side: Int32, scale: Int32,
                     thumbnails: ThumbnailCache?, lent: LentImages? = nil) -> PhotoPicture? {
        if let kept = thumbnails?.load(relativePath: relativePath, side: side, scale: scale, photo: path, into: lent) {
            return PhotoPicture(picture: kept, source: .thumbnail)
        }
        guard let decoded = ImageDecoding.squareThumbnail(path: path, side: side) else { return nil }
        thumbnails?.keep(decoded, relativePath: relativePath, side: side, photo: path)
        // Into a lent image like the window's, if one is left: no new image, and no copy on the main thread.
        if let picture = lent?.fill(side: side, scale: scale, { image in
            ImageSurfaces.paint(decoded.pixbuf, over: image.data, width: side, height: side, stride: image.stride)
        }) {
            return PhotoPicture(picture: picture, source: .file)
        }
        // None lent, or a photo with transparency: in an image of its own.
        return PaintablePicture(decoded.pixbuf, scale: scale).map { PhotoPicture(picture: $0, source: .file) }
    }
}

/// A page that goes on screen when its owner finds it ready (`finish`), or after a wait as it is.
@MainActor
final class PresentationWait {
    private var pending: (present: () -> Void, deadline: Timeout)?

    var isWaiting: Bool { pending != nil }

    /// `present` runs at `finish`, or after `milliseconds`, whichever comes first; a wait under way is dropped.
    func wait(milliseconds: UInt32, then present: @escaping () -> Void) {
        cancel()
        let deadline = Timeout.after(milliseconds: milliseconds) { [weak self] in self?.finish() }
        pending = (present, deadline)
    }

    func finish() {
        guard let pending else { return }
        self.pending = nil
        pending.deadline.cancel()
        pending.present()
    }

    func cancel() {
        pending?.deadline.cancel()
        pending = nil
    }
}

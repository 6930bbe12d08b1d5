import Foundation
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

/// An album as it is on disk, read in one go off the main thread: its rows, and the grid picture of each of its
/// downloaded photos. The album page builds its grid from it in one pass, so the album's first frame shows its
/// photos, not thirty squares that fill in over the next frames.
struct AlbumSnapshot: Sendable {
    let contents: AlbumContents
    /// By photo file (its data-folder-relative path); a photo whose file does not decode has none.
    let pictures: [String: AlbumPicture]

    static func read(pinID: Int64, store: any AlbumPageStore, pictures: AlbumPictures, side: Int32,
                     scale: Int32) async throws -> AlbumSnapshot {
        let contents = try store.albumContents(ofPin: pinID)
        let files = contents.photos.compactMap(\.filePath)
        return AlbumSnapshot(contents: contents, pictures: await pictures.pictures(of: files, side: side, scale: scale))
    }
}

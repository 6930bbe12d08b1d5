// What the album page does when asked: New Collection, another time, a photo clicked (retried or removed), deletions
// made final.
import TouristStore
import Translations

extension AlbumPage {
    func newCollection() {
        guard let pinID else { return }
        finishPendingDeletions()
        albums.newCollection(ofPin: pinID)
    }

    /// Another time chosen for the album: a new collection of photos taken then.
    func chooseTime(_ years: ClosedRange<Int>?) {
        guard let pinID else { return }
        if let album = contents.album, album.takenYears == years, !albums.activity(ofPin: pinID).isBusy { return }
        finishPendingDeletions()
        albums.showPhotos(ofPin: pinID, takenIn: years)
    }

    /// A click: a failed photo is tried again; a photo is removed (with Undo), once the album is whole.
    func clicked(_ tile: PhotoTile) {
        guard let pinID, let id = tile.photo.id else { return }
        if tile.state == .failed {
            albums.retry(photoID: id, ofPin: pinID)
            return
        }
        guard canDelete() else { return }
        deletions.delete(photoID: id)
    }

    func deleteFromKeyboard(_ tile: PhotoTile) {
        guard let id = tile.photo.id, canDelete() else { return }
        grid.willRemove(tile) // the next photo keeps the keyboard
        deletions.delete(photoID: id)
    }

    private func canDelete() -> Bool {
        guard let pinID else { return false }
        guard albums.isComplete(contents, pinID: pinID) else {
            notification.show(tr("Photos can be removed once the album has finished downloading."), seconds: 4)
            return false
        }
        return true
    }

    /// On leaving the album or quitting: deleted photos' files go for good (synchronously).
    func finishPendingDeletions() {
        deletions.finishAll()
    }
}

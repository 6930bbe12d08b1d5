// What the album page does when asked: New Collection, a photo clicked (retried or removed), deletions made final.
import TouristStore
import Translations

extension AlbumPage {
    func newCollection() {
        guard let pinID else { return }
        finishPendingDeletions()
        albums.newCollection(ofPin: pinID)
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

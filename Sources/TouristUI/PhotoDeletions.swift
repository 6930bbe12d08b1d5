import Foundation
import TouristStore
import Translations

/// Photos removed from the open album and still undoable: the row goes at once (off the main
/// thread), the file only when the note's Undo is no longer offered.
@MainActor
final class PhotoDeletions {
    private let store: any AlbumPageStore
    private let notification: InAppNotification
    private var pending: [Int64: PhotoDeletion] = [:]

    init(store: any AlbumPageStore, notification: InAppNotification) {
        self.store = store
        self.notification = notification
    }

    /// Removes the photo and offers Undo in the note (Ctrl+Z takes it too).
    func delete(photoID: Int64) {
        let store = self.store
        Task { [weak self] in
            let result = await Task.detached { Result { try store.deletePhotoForUndo(id: photoID) } }.value
            guard let self else { return }
            switch result {
            case .success(let deletion?):
                self.pending[photoID] = deletion
                self.notification.show(tr("Photo removed"), actionLabel: tr("Undo"), seconds: 6,
                                       action: { [weak self] in self?.undo(photoID) },
                                       onDismiss: { [weak self] in self?.finish(photoID) })
            case .success(nil):
                break
            case .failure(let error):
                // Translators: %@ says why, e.g. "The disk is full."
                self.notification.show(formatted(tr("The photo could not be removed. %@"), error.localizedDescription))
            }
        }
    }

    private func undo(_ photoID: Int64) {
        guard let deletion = pending.removeValue(forKey: photoID) else { return }
        let store = self.store
        Task.detached { [weak self] in
            do { try store.undoPhotoDeletion(deletion) } catch {
                let message = error.localizedDescription
                // Translators: %@ says why, e.g. "The disk is full."
                let text = formatted(tr("The photo could not be restored. %@"), message)
                await MainActor.run { self?.notification.show(text) }
            }
        }
    }

    private func finish(_ photoID: Int64) {
        guard let deletion = pending.removeValue(forKey: photoID) else { return }
        let store = self.store
        Task.detached { try? store.finishPhotoDeletion(deletion) }
    }

    /// On leaving the album or quitting: deleted photos' files go for good (synchronously).
    func finishAll() {
        let deletions = pending
        pending.removeAll()
        for deletion in deletions.values {
            try? store.finishPhotoDeletion(deletion)
        }
        if !deletions.isEmpty { notification.dismiss() } // its Undo no longer applies
    }
}

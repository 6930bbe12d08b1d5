import Foundation
import GRDB

/// A pin deleted with its photos whose files are kept until the deletion is finished, so it can
/// be undone exactly.
public struct PinDeletion: Sendable, Equatable {
    public let pin: Pin
    public let photos: [Photo]
    public let album: Album?
    let seenFlickrIds: [String]
    /// Marks this deletion's held files in `pending_file_deletion.held_by`.
    let token: String
}

// MARK: - Undoable deletion

extension AppDatabase {
    /// Deletes the pin and its photos now (rows go by cascade), but holds their files until
    /// `finishPinDeletion(_:)` (or the next start) so that `undoPinDeletion(_:)` can restore them.
    ///
    /// - throws: `StoreError.pinNotFound` if the pin is already gone.
    public func deletePinForUndo(id: Int64) throws -> PinDeletion {
        try write { db in
            guard let pin = try Pin.fetchOne(db, id: id) else { throw StoreError.pinNotFound(id: id) }
            let photos = try Self.album(ofPin: id).fetchAll(db)
            let album = try Album.fetchOne(db, key: id)
            let seen = try String.fetchAll(db, sql: "SELECT flickr_id FROM seen_photo WHERE pin_id = ?", arguments: [id])
            _ = try pin.delete(db)
            let deletion = PinDeletion(pin: pin, photos: photos, album: album, seenFlickrIds: seen,
                                       token: UUID().uuidString)
            let paths = photos.compactMap(\.filePath)
            if !paths.isEmpty {
                try db.execute(literal: """
                    UPDATE pending_file_deletion SET held_by = \(deletion.token) WHERE path IN \(paths)
                    """)
            }
            return deletion
        }
    }

    /// Puts the pin and its photos back with their ids, and keeps their files.
    /// Ids are never reused (AUTOINCREMENT), so the old ids are free.
    public func undoPinDeletion(_ deletion: PinDeletion) throws {
        try write { db in
            var pin = deletion.pin
            try pin.insert(db)
            for photo in deletion.photos {
                var photo = photo
                try photo.insert(db)
            }
            try deletion.album?.insert(db)
            for flickrId in deletion.seenFlickrIds {
                try db.execute(literal: "INSERT INTO seen_photo(pin_id, flickr_id) VALUES (\(pin.id), \(flickrId))")
            }
            try db.execute(literal: "DELETE FROM pending_file_deletion WHERE held_by = \(deletion.token)")
        }
    }

    /// The undo window has closed: the deletion's files are unlinked.
    public func finishPinDeletion(_ deletion: PinDeletion) throws {
        try write { db in
            try db.execute(literal: "UPDATE pending_file_deletion SET held_by = NULL WHERE held_by = \(deletion.token)")
        }
    }
}

/// A running observation of the store; it stops when cancelled or released.
public final class StoreObservation {
    private let cancellable: AnyDatabaseCancellable

    init(_ cancellable: AnyDatabaseCancellable) { self.cancellable = cancellable }

    public func cancel() { cancellable.cancel() }
}

// MARK: - Observations on the main actor

extension AppDatabase {
    /// Delivers the pin (nil once it is deleted) on the main actor now and after each change.
    @MainActor
    public func observePin(id: Int64, onError: @escaping @MainActor (Error) -> Void,
                           onChange: @escaping @MainActor (Pin?) -> Void) -> StoreObservation {
        let observation = ValueObservation.tracking { db in try Pin.fetchOne(db, id: id) }.removeDuplicates()
        return StoreObservation(observation.start(in: reader, onError: onError, onChange: onChange))
    }

    /// Delivers the pin's photos in album order on the main actor now and after each change.
    @MainActor
    public func observePhotos(ofPin pinId: Int64, onError: @escaping @MainActor (Error) -> Void,
                              onChange: @escaping @MainActor ([Photo]) -> Void) -> StoreObservation {
        StoreObservation(observePhotos(ofPin: pinId).start(in: reader, onError: onError, onChange: onChange))
    }
}

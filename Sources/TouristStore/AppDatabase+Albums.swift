import Foundation
import GRDB

/// A photo deleted from its album whose file is kept until the deletion is finished (undo).
public struct PhotoDeletion: Sendable, Equatable {
    public let photo: Photo
    let token: String
}

// MARK: - Albums

extension AppDatabase {
    /// The album's metadata, or nil if the pin's photos were never searched for.
    public func album(ofPin pinId: Int64) throws -> Album? {
        try read { db in try Album.fetchOne(db, key: pinId) }
    }

    /// The years each of these pins' albums shows, for those that show only some ("Photos from: 2015").
    public func albumYears(ofPins pinIds: [Int64]) throws -> [Int64: ClosedRange<Int>] {
        guard !pinIds.isEmpty else { return [:] }
        return try read { db in
            let albums = try Album.fetchAll(db, sql: "SELECT * FROM album WHERE pin_id IN (SELECT value FROM json_each(?))",
                                            arguments: [String(decoding: try JSONEncoder().encode(pinIds), as: UTF8.self)])
            return Dictionary(uniqueKeysWithValues: albums.compactMap { album in album.takenYears.map { (album.pinId, $0) } })
        }
    }

    public func albumContents(ofPin pinId: Int64) throws -> AlbumContents {
        try read { db in
            AlbumContents(album: try Album.fetchOne(db, key: pinId), photos: try Self.album(ofPin: pinId).fetchAll(db))
        }
    }

    /// Replaces the pin's album in one transaction: the old photos and their files go, the new
    /// photos (not downloaded yet) come in album order, and their Flickr ids are remembered as seen.
    /// A Flickr photo listed twice is kept once. Returns the inserted photos with their ids.
    ///
    /// - parameter searchedAt: where the album was searched for; if the pin is elsewhere now, the
    ///   album belongs to its old place and nothing is written.
    /// - throws: `StoreError.pinNotFound` if the pin was deleted meanwhile, `.pinMoved` if it moved.
    public func replaceAlbum(_ album: Album, photos: [Photo],
                             searchedAt: (latitude: Double, longitude: Double)?) throws -> [Photo] {
        try write { db in
            guard let pin = try Pin.fetchOne(db, id: album.pinId) else { throw StoreError.pinNotFound(id: album.pinId) }
            if let searchedAt, !AlbumPlace.isSame(searchedAt, (pin.latitude, pin.longitude)) {
                throw StoreError.pinMoved(id: album.pinId)
            }
            try Photo.filter(Photo.Columns.pinId == album.pinId).deleteAll(db)
            try album.upsert(db)
            var inserted: [Photo] = []
            var flickrIds: Set<String> = []
            for photo in photos where flickrIds.insert(photo.flickrId).inserted {
                let index = inserted.count
                var photo = photo
                photo.pinId = album.pinId
                photo.position = index
                photo.filePath = nil
                inserted.append(try photo.inserted(db))
                try db.execute(literal: """
                    INSERT OR IGNORE INTO seen_photo(pin_id, flickr_id) VALUES (\(album.pinId), \(photo.flickrId))
                    """)
            }
            return inserted
        }
    }

    public func replaceAlbum(_ album: Album, photos: [Photo]) throws -> [Photo] {
        try replaceAlbum(album, photos: photos, searchedAt: nil)
    }

    /// Forgets the pin's album entirely (photos, their files, metadata, seen ids), e.g. after the
    /// pin moved: the next open searches its new place.
    public func clearAlbum(ofPin pinId: Int64) throws {
        try write { db in try Self.clearAlbum(ofPin: pinId, db) }
    }

    static func clearAlbum(ofPin pinId: Int64, _ db: Database) throws {
        try Photo.filter(Photo.Columns.pinId == pinId).deleteAll(db)
        _ = try Album.deleteOne(db, key: pinId)
        try db.execute(literal: "DELETE FROM seen_photo WHERE pin_id = \(pinId)")
    }

    /// Flickr ids this pin's albums have shown or the user deleted.
    public func seenFlickrIds(ofPin pinId: Int64) throws -> Set<String> {
        try read { db in
            try String.fetchSet(db, sql: "SELECT flickr_id FROM seen_photo WHERE pin_id = ?", arguments: [pinId])
        }
    }

    /// Delivers the pin's album (metadata and photos in order) on the main actor now and after each change.
    @MainActor
    public func observeAlbum(ofPin pinId: Int64, onError: @escaping @MainActor (Error) -> Void,
                             onChange: @escaping @MainActor (AlbumContents) -> Void) -> StoreObservation {
        let observation = ValueObservation
            .tracking { db in
                AlbumContents(album: try Album.fetchOne(db, key: pinId), photos: try Self.album(ofPin: pinId).fetchAll(db))
            }
            .removeDuplicates()
        return StoreObservation(observation.start(in: reader, onError: onError, onChange: onChange))
    }
}

// MARK: - Undoable photo deletion

extension AppDatabase {
    /// Deletes the photo row now and holds its file until `finishPhotoDeletion(_:)` (or the next start).
    /// Returns nil if the photo is already gone.
    public func deletePhotoForUndo(id: Int64) throws -> PhotoDeletion? {
        try write { db in
            guard let photo = try Photo.fetchOne(db, id: id) else { return nil }
            _ = try photo.delete(db)
            let deletion = PhotoDeletion(photo: photo, token: UUID().uuidString)
            if let path = photo.filePath {
                try db.execute(literal: """
                    UPDATE pending_file_deletion SET held_by = \(deletion.token) WHERE path = \(path)
                    """)
            }
            return deletion
        }
    }

    /// Puts the photo back in its place with its file; does nothing if its pin has gone since.
    public func undoPhotoDeletion(_ deletion: PhotoDeletion) throws {
        try write { db in
            guard try Pin.exists(db, id: deletion.photo.pinId) else {
                try db.execute(literal: "UPDATE pending_file_deletion SET held_by = NULL WHERE held_by = \(deletion.token)")
                return
            }
            var photo = deletion.photo
            try photo.insert(db)
            try db.execute(literal: "DELETE FROM pending_file_deletion WHERE held_by = \(deletion.token)")
        }
    }

    /// The undo window has closed: the photo's file is unlinked.
    public func finishPhotoDeletion(_ deletion: PhotoDeletion) throws {
        try write { db in
            try db.execute(literal: "UPDATE pending_file_deletion SET held_by = NULL WHERE held_by = \(deletion.token)")
        }
    }
}

import GRDB
import XCTest
@testable import TouristStore

final class UndoablePinDeletionTests: XCTestCase {
    func testDeletingForUndoRemovesRowsButKeepsFilesUntilFinished() throws {
        // Given a pin with two downloaded photos
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 48.8584, longitude: 2.2945).id)
        let (_, first) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", position: 0, in: database)
        let (_, second) = try insertDownloadedPhoto(pinId: pinId, flickrId: "2", position: 1, in: database)

        // When it is deleted for undo
        let deletion = try database.deletePinForUndo(id: pinId)

        // Then the rows are gone at once, the files stay
        XCTAssertNil(try database.pin(id: pinId))
        XCTAssertEqual(try database.photos(ofPin: pinId), [])
        XCTAssertEqual(deletion.photos.count, 2)
        XCTAssertTrue(fileExists(first))
        XCTAssertTrue(fileExists(second))

        // and other writes do not unlink them
        _ = try database.insertPin(latitude: 1, longitude: 1)
        XCTAssertTrue(fileExists(first))

        // When the undo window closes
        try database.finishPinDeletion(deletion)

        // Then the files are gone for good
        XCTAssertFalse(fileExists(first))
        XCTAssertFalse(fileExists(second))
    }

    func testUndoRestoresThePinAndItsPhotosExactly() throws {
        // Given a pin with photos, deleted for undo
        let database = try makeEmptyDatabase()
        let pin = try database.insertPin(latitude: -33.8568, longitude: 151.2153)
        let pinId = try XCTUnwrap(pin.id)
        let (_, fileURL) = try insertDownloadedPhoto(pinId: pinId, flickrId: "a", position: 0, in: database)
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "b", position: 1)) // not downloaded yet
        let before = try database.photos(ofPin: pinId)
        let deletion = try database.deletePinForUndo(id: pinId)

        // When undone
        try database.undoPinDeletion(deletion)

        // Then the same rows are back, with the same ids, and the file is still there
        XCTAssertEqual(try database.pin(id: pinId), pin)
        XCTAssertEqual(try database.photos(ofPin: pinId), before)
        XCTAssertTrue(fileExists(fileURL))

        // and the file is no longer marked for deletion: later writes keep it
        _ = try database.insertPin(latitude: 2, longitude: 2)
        XCTAssertTrue(fileExists(fileURL))
        let pending = try database.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion")
        }
        XCTAssertEqual(pending, 0)
    }

    func testHeldFilesSurviveTheOrphanSweep() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 0, longitude: 0).id)
        let (_, fileURL) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        let deletion = try database.deletePinForUndo(id: pinId)

        let removed = try database.removeOrphanedPhotoFiles()

        XCTAssertEqual(removed, 0)
        XCTAssertTrue(fileExists(fileURL))
        try database.undoPinDeletion(deletion)
        XCTAssertEqual(try database.photos(ofPin: pinId).first?.filePath, "photos/\(pinId)/1.jpg")
    }

    func testReopeningTheDatabaseFinishesDeletionsLeftOpenByAnEndedRun() throws {
        // Given a deletion whose undo window was open when the app was killed
        let paths = try makeTemporaryPaths()
        var fileURL: URL
        do {
            let database = try AppDatabase.open(paths: paths)
            let pinId = try XCTUnwrap(database.insertPin(latitude: 0, longitude: 0).id)
            (_, fileURL) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
            _ = try database.deletePinForUndo(id: pinId)
            XCTAssertTrue(fileExists(fileURL))
        }

        // When the app starts again
        let reopened = try AppDatabase.open(paths: paths)

        // Then the file is gone and nothing is left pending
        XCTAssertFalse(fileExists(fileURL))
        XCTAssertEqual(try reopened.pins(), [])
        let pending = try reopened.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion")
        }
        XCTAssertEqual(pending, 0)
    }

    func testDeletingAMissingPinForUndoSaysSo() throws {
        let database = try makeEmptyDatabase()
        XCTAssertThrowsError(try database.deletePinForUndo(id: 42)) { error in
            XCTAssertEqual(error as? StoreError, .pinNotFound(id: 42))
        }
    }
}

final class AlbumStoreTests: XCTestCase {
    func testReplacingAnAlbumSwapsPhotosAndFilesAndRemembersWhatWasSeen() throws {
        // Given a pin whose album has a downloaded photo
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 2).id)
        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 3, total: 75, perPage: 30),
                                      photos: [makePhoto(pinId: pinId, flickrId: "a"), makePhoto(pinId: pinId, flickrId: "b")])
        let first = try XCTUnwrap(database.photos(ofPin: pinId).first)
        let oldFile = try writeFile("photos/\(pinId)/a.jpg", in: database)
        try database.setPhotoFile(id: try XCTUnwrap(first.id), relativePath: "photos/\(pinId)/a.jpg")

        // When a new collection replaces it
        let inserted = try database.replaceAlbum(Album(pinId: pinId, page: 2, pages: 3, total: 75, perPage: 30),
                                                 photos: [makePhoto(pinId: pinId, flickrId: "c")])

        // Then only the new photo is there, in position 0, without a file yet; the old file is gone
        XCTAssertEqual(inserted.map(\.flickrId), ["c"])
        XCTAssertEqual(try database.photos(ofPin: pinId).map(\.flickrId), ["c"])
        XCTAssertNil(try database.photos(ofPin: pinId).first?.filePath)
        XCTAssertFalse(fileExists(oldFile))
        XCTAssertEqual(try database.album(ofPin: pinId)?.page, 2)
        XCTAssertEqual(try database.seenFlickrIds(ofPin: pinId), ["a", "b", "c"])
    }

    func testAnEmptyLocationIsRememberedAsAnEmptyAlbum() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 0, longitude: 0).id)

        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 0, total: 0, perPage: 30), photos: [])

        let contents = try database.albumContents(ofPin: pinId)
        XCTAssertEqual(contents.album?.isEmpty, true)
        XCTAssertEqual(contents.photos, [])
    }

    func testReplacingTheAlbumOfADeletedPinFails() throws {
        let database = try makeEmptyDatabase()
        XCTAssertThrowsError(try database.replaceAlbum(Album(pinId: 9, page: 1, pages: 1, total: 1, perPage: 30),
                                                       photos: [])) { error in
            XCTAssertEqual(error as? StoreError, .pinNotFound(id: 9))
        }
    }

    func testUndoingAPhotoDeletionPutsItBackInPlaceWithItsFile() throws {
        // Given an album of three downloaded photos
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        var urls: [URL] = []
        for (position, flickrId) in ["a", "b", "c"].enumerated() {
            urls.append(try insertDownloadedPhoto(pinId: pinId, flickrId: flickrId, position: position, in: database).1)
        }
        let middle = try database.photos(ofPin: pinId)[1]

        // When the middle one is deleted, the others close the gap and its file stays for now
        let deletion = try XCTUnwrap(database.deletePhotoForUndo(id: try XCTUnwrap(middle.id)))
        XCTAssertEqual(try database.photos(ofPin: pinId).map(\.flickrId), ["a", "c"])
        XCTAssertTrue(fileExists(urls[1]))

        // Then undo puts it back in the middle
        try database.undoPhotoDeletion(deletion)
        XCTAssertEqual(try database.photos(ofPin: pinId).map(\.flickrId), ["a", "b", "c"])
        XCTAssertTrue(fileExists(urls[1]))
    }

    func testFinishingAPhotoDeletionRemovesTheFile() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "a", in: database)

        let deletion = try XCTUnwrap(database.deletePhotoForUndo(id: try XCTUnwrap(photo.id)))
        try database.finishPhotoDeletion(deletion)

        XCTAssertFalse(fileExists(url))
        XCTAssertEqual(try database.photos(ofPin: pinId), [])
    }

    func testUndoingAPinDeletionRestoresItsAlbumAndSeenPhotos() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let album = Album(pinId: pinId, page: 2, pages: 4, total: 100, perPage: 30)
        _ = try database.replaceAlbum(album, photos: [makePhoto(pinId: pinId, flickrId: "x")])

        let deletion = try database.deletePinForUndo(id: pinId)
        XCTAssertNil(try database.album(ofPin: pinId))
        try database.undoPinDeletion(deletion)

        XCTAssertEqual(try database.album(ofPin: pinId), album)
        XCTAssertEqual(try database.seenFlickrIds(ofPin: pinId), ["x"])
    }
}

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

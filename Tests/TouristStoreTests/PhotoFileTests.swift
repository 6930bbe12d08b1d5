import GRDB
import XCTest
@testable import TouristStore

final class PhotoFileTests: XCTestCase {
    func testPhotoFileURLIsResolvedAgainstTheDataFolder() throws {
        let dataFolder = try makeTemporaryFolder()
        let database = try AppDatabase.empty(dataFolder: dataFolder)

        let url = database.photoFileURL(relativePath: "photos/7/52123_abc.jpg")

        XCTAssertEqual(url.path, dataFolder.appendingPathComponent("photos/7/52123_abc.jpg").path)
        XCTAssertEqual(database.photosFolder.path, dataFolder.appendingPathComponent("photos").path)
        XCTAssertTrue(fileExists(database.photosFolder))
    }

    func testSettingPhotoFileRecordsItsPath() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let photoId = try XCTUnwrap(database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1")).id)
        let url = try writeFile("photos/\(pinId)/1.jpg", in: database)

        try database.setPhotoFile(id: photoId, relativePath: "photos/\(pinId)/1.jpg")

        XCTAssertEqual(try database.photos(ofPin: pinId).first?.filePath, "photos/\(pinId)/1.jpg")
        XCTAssertTrue(fileExists(url))
    }

    func testDeletingPhotoDeletesItsFile() throws {
        // Given a downloaded photo and a sibling
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        let (_, siblingURL) = try insertDownloadedPhoto(pinId: pinId, flickrId: "2", in: database)

        // When deleting the photo
        try database.deletePhoto(id: try XCTUnwrap(photo.id))

        // Then its file is gone, the sibling's stays
        XCTAssertFalse(fileExists(url))
        XCTAssertTrue(fileExists(siblingURL))
    }

    func testDeletingPinDeletesItsPhotoFiles() throws {
        // Given two pins with downloaded photos
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let otherPinId = try XCTUnwrap(database.insertPin(latitude: 2, longitude: 2).id)
        let (_, first) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        let (_, second) = try insertDownloadedPhoto(pinId: pinId, flickrId: "2", in: database)
        let (_, kept) = try insertDownloadedPhoto(pinId: otherPinId, flickrId: "3", in: database)

        // When deleting the first pin (its photos go by ON DELETE CASCADE)
        try database.deletePin(id: pinId)

        // Then the cascade fired the trigger for each photo: their files are gone
        XCTAssertFalse(fileExists(first))
        XCTAssertFalse(fileExists(second))
        XCTAssertTrue(fileExists(kept))
    }

    func testCascadeDeleteFiresPhotoDeleteTriggerInsideTheTransaction() throws {
        // Given a pin with a downloaded photo
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, _) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)

        // When deleting only the pin row, then looking inside the same transaction
        let pending = try database.write { db in
            try db.execute(sql: "DELETE FROM pin WHERE id = ?", arguments: [pinId])
            return try String.fetchAll(db, sql: "SELECT path FROM pending_file_deletion")
        }

        // Then SQLite fired the photo trigger for the cascaded row, and the list was drained after commit
        XCTAssertEqual(pending, [photo.filePath])
        let left = try database.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion") }
        XCTAssertEqual(left, 0)
    }

    func testRolledBackDeleteDeletesNoFile() throws {
        // Given a pin with a downloaded photo
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)

        // When a transaction deletes the pin and then fails
        XCTAssertThrowsError(try database.write { db in
            _ = try Pin.deleteOne(db, id: pinId)
            throw TestError()
        })

        // Then the photo, its file, and nothing pending remain
        XCTAssertTrue(fileExists(url))
        XCTAssertEqual(try database.photos(ofPin: pinId), [photo])
        let pending = try database.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion") }
        XCTAssertEqual(pending, 0)
    }

    func testReplacingPhotoFileDeletesTheOldFile() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, oldURL) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        let newURL = try writeFile("photos/\(pinId)/1_large.jpg", in: database)

        try database.setPhotoFile(id: try XCTUnwrap(photo.id), relativePath: "photos/\(pinId)/1_large.jpg")

        XCTAssertFalse(fileExists(oldURL))
        XCTAssertTrue(fileExists(newURL))
    }

    func testClearingPhotoFileDeletesTheFile() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)

        try database.setPhotoFile(id: try XCTUnwrap(photo.id), relativePath: nil)

        XCTAssertFalse(fileExists(url))
        XCTAssertNil(try database.photos(ofPin: pinId).first?.filePath)
    }

    func testSettingTheSamePhotoFileAgainKeepsTheFile() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)

        try database.setPhotoFile(id: try XCTUnwrap(photo.id), relativePath: photo.filePath)

        XCTAssertTrue(fileExists(url))
    }

    func testFileStillNamedByAnotherPhotoIsKept() throws {
        // Given two photos that name the same file
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "2", filePath: photo.filePath))

        // When deleting one of them
        try database.deletePhoto(id: try XCTUnwrap(photo.id))

        // Then the file stays for the other
        XCTAssertTrue(fileExists(url))
    }

    func testDeletingPhotoWhoseFileIsAlreadyGoneSucceeds() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (photo, url) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        try FileManager.default.removeItem(at: url)

        try database.deletePhoto(id: try XCTUnwrap(photo.id))

        XCTAssertEqual(try database.photos(ofPin: pinId), [])
    }

    func testSettingFileOfDeletedPhotoThrowsPhotoNotFound() throws {
        let database = try makeEmptyDatabase()

        XCTAssertThrowsError(try database.setPhotoFile(id: 5, relativePath: "photos/1/5.jpg")) { error in
            XCTAssertEqual(error as? StoreError, .photoNotFound(id: 5))
        }
    }

    func testPathsOutsideThePhotosFolderAreRejected() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let photoId = try XCTUnwrap(database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1")).id)

        for path in ["../VirtualTourist.sqlite", "photos/../VirtualTourist.sqlite", "/etc/passwd",
                     "photos", "photos/", "photos//1.jpg", "photos/./1.jpg", "other/1.jpg", ""] {
            XCTAssertThrowsError(try database.setPhotoFile(id: photoId, relativePath: path), path) { error in
                XCTAssertEqual(error as? StoreError, .invalidPhotoPath(path))
            }
            XCTAssertThrowsError(
                try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "2", filePath: path)), path)
        }
        XCTAssertNil(try database.photos(ofPin: pinId).first?.filePath)
    }

    func testPhotoPathsAreCheckedByteForByteAsTheKernelReadsThem() {
        // Found by the fuzzer (Tests/fuzz): a combining mark glued to "/" or to a NUL hid them.
        XCTAssertFalse(AppDatabase.isPhotoPath("photos/../\u{301}x.jpg"), "leaves photos/")
        XCTAssertFalse(AppDatabase.isPhotoPath("photos/7/a.jpg\u{0}\u{301}"), "a NUL the kernel stops at")
        XCTAssertFalse(AppDatabase.isPhotoPath("photos//\u{200D}x.jpg"), "an empty component")
        XCTAssertTrue(AppDatabase.isPhotoPath("photos/7/\u{301}.jpg"), "a mark inside a name is fine")
        XCTAssertTrue(AppDatabase.isPhotoPath("photos/7/52123-a1b2.png"))
    }

    func testPendingPathsOutsideThePhotosFolderAreNeverDeleted() throws {
        // Given pending deletions that point outside the photos folder (e.g. a hand-edited database)
        let dataFolder = try makeTemporaryFolder()
        let outside = dataFolder.appendingPathComponent("keep.txt")
        try Data("keep".utf8).write(to: outside)
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue)
        try queue.write { db in
            for path in ["photos/../keep.txt", outside.path, "keep.txt"] {
                try db.execute(sql: "INSERT INTO pending_file_deletion (path) VALUES (?)", arguments: [path])
            }
        }

        // When the store drains them
        _ = try AppDatabase(queue, dataFolder: dataFolder)

        // Then the file is untouched, and the bad paths are forgotten
        XCTAssertTrue(fileExists(outside))
        let pending = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion") }
        XCTAssertEqual(pending, 0)
    }

    func testOpeningFinishesFileDeletionsLeftPendingByACrash() throws {
        // Given a file deletion committed but not carried out (a crash between commit and unlink)
        let dataFolder = try makeTemporaryFolder()
        let url = dataFolder.appendingPathComponent("photos/1/1.jpg")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: url)
        let queue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO pending_file_deletion (path) VALUES ('photos/1/1.jpg')")
        }

        // When the store opens the database
        _ = try AppDatabase(queue, dataFolder: dataFolder)

        // Then the file is deleted and the list is empty
        XCTAssertFalse(fileExists(url))
        let pending = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion") }
        XCTAssertEqual(pending, 0)
    }

    func testFileThatCannotBeUnlinkedStaysPendingUntilTheNextWrite() throws {
        // Given a photo whose path is, unexpectedly, a folder with content (unlink fails)
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let path = "photos/\(pinId)/1.jpg"
        let blocker = try writeFile("\(path)/inside", in: database)
        let photo = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1", filePath: path))

        // When deleting the photo, then clearing the obstacle and writing anything
        try database.deletePhoto(id: try XCTUnwrap(photo.id))
        let pendingAfterDelete = try database.reader.read { db in
            try String.fetchAll(db, sql: "SELECT path FROM pending_file_deletion")
        }
        try FileManager.default.removeItem(at: blocker.deletingLastPathComponent())
        try writeFile(path, in: database)
        try database.saveViewport(.world)

        // Then the delete succeeded, the path waited in the list, and the next write removed the file
        XCTAssertEqual(pendingAfterDelete, [path])
        XCTAssertEqual(try database.photos(ofPin: pinId), [])
        XCTAssertFalse(fileExists(database.photoFileURL(relativePath: path)))
        let pending = try database.reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending_file_deletion") }
        XCTAssertEqual(pending, 0)
    }

    func testOrphanSweepRemovesUnnamedAndPartialFilesButKeepsNamedOnes() throws {
        // Given named photo files, plus an unnamed file, a partial download, and stray folders
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let (_, named) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
        let (_, namedSibling) = try insertDownloadedPhoto(pinId: pinId, flickrId: "2", in: database)
        let unnamed = try writeFile("photos/\(pinId)/3.jpg", in: database)
        let partial = try writeFile("photos/\(pinId)/4.jpg.part", in: database)
        let strayFolder = database.photoFileURL(relativePath: "photos/99")
        let strayFile = try writeFile("photos/99/nested/5.jpg", in: database)
        let emptyFolder = database.photoFileURL(relativePath: "photos/100")
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)

        // When sweeping
        let removed = try database.removeOrphanedPhotoFiles()

        // Then only the named files, their folder and the photos folder remain
        XCTAssertEqual(removed, 3)
        XCTAssertTrue(fileExists(named))
        XCTAssertTrue(fileExists(namedSibling))
        XCTAssertFalse(fileExists(unnamed))
        XCTAssertFalse(fileExists(partial))
        XCTAssertFalse(fileExists(strayFile))
        XCTAssertFalse(fileExists(strayFolder))
        XCTAssertFalse(fileExists(emptyFolder))
        XCTAssertTrue(fileExists(database.photosFolder))
    }

    func testOrphanSweepDoesNotFollowSymbolicLinks() throws {
        // Given a link in the photos folder to a folder outside it
        let database = try makeEmptyDatabase()
        let outsideFolder = try makeTemporaryFolder()
        let outsideFile = outsideFolder.appendingPathComponent("precious.jpg")
        try Data("keep".utf8).write(to: outsideFile)
        let link = database.photoFileURL(relativePath: "photos/link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outsideFolder)

        // When sweeping
        let removed = try database.removeOrphanedPhotoFiles()

        // Then the link goes, what it pointed to stays
        XCTAssertEqual(removed, 1)
        XCTAssertTrue(fileExists(outsideFile))
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
    }

    func testOpeningEmptiesTheStagingFolderButLeavesThePhotosFolderToTheBackgroundSweep() throws {
        // Given a half-finished download in the staging folder and an orphan in the photos folder
        let paths = try makeTemporaryPaths()
        let named: URL
        let orphan: URL
        do {
            let database = try AppDatabase.open(paths: paths)
            let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
            (_, named) = try insertDownloadedPhoto(pinId: pinId, flickrId: "1", in: database)
            orphan = try writeFile("photos/\(pinId)/2.jpg", in: database)
        }
        let staged = paths.stagingFolder.appendingPathComponent("1234.part")
        try Data("half".utf8).write(to: staged)

        // When opening it again
        let database = try AppDatabase.open(paths: paths)

        // Then the staged file is gone at once; the photos folder is not walked before the window
        XCTAssertFalse(fileExists(staged))
        XCTAssertTrue(fileExists(paths.stagingFolder))
        XCTAssertTrue(fileExists(orphan), "start-up does nothing that grows with the library")
        XCTAssertEqual(try database.removeOrphanedPhotoFiles(), 1)
        XCTAssertFalse(fileExists(orphan))
        XCTAssertTrue(fileExists(named))
    }

    func testOpeningWithoutEmptyingStagingLeavesAnotherInstancesDownloadsAlone() throws {
        // Given a download another running instance has staged
        let paths = try makeTemporaryPaths()
        _ = try AppDatabase.open(paths: paths)
        let staged = paths.stagingFolder.appendingPathComponent("5678.jpg")
        try Data("jpeg".utf8).write(to: staged)

        // When a second launch opens the store before it knows whether it is the only instance
        _ = try AppDatabase.open(paths: paths, emptyingStaging: false)

        // Then the download is still there; the one instance empties the folder when it starts
        XCTAssertTrue(fileExists(staged))
        try AppDatabase.emptyStagingFolder(paths: paths)
        XCTAssertFalse(fileExists(staged))
        XCTAssertTrue(fileExists(paths.stagingFolder))
    }

    func testTheSweepNeverDeletesAFileADownloadIsAdopting() throws {
        // Given a pin whose photos are being adopted one after the other while the sweep runs
        let paths = try makeTemporaryPaths()
        let database = try AppDatabase.open(paths: paths)
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let photos = try (0..<300).map { index in
            try database.insertPhoto(Photo(pinId: pinId, flickrId: "\(index)", remoteURL: "https://x/\(index).jpg",
                                           position: index))
        }
        let adopting = DispatchGroup()
        DispatchQueue.global().async(group: adopting) {
            for photo in photos {
                let staged = paths.stagingFolder.appendingPathComponent(UUID().uuidString + ".jpg")
                try? Data("jpeg".utf8).write(to: staged)
                _ = try? database.adoptPhotoFiles([StagedPhotoFile(photoID: photo.id!, file: staged, fileExtension: "jpg")])
            }
        }

        // When sweeping over and over meanwhile
        var sweeps = 0
        while adopting.wait(timeout: .now()) == .timedOut {
            _ = try database.removeOrphanedPhotoFiles()
            sweeps += 1
        }

        // Then every adopted photo still has its file
        let rows = try database.photos(ofPin: pinId)
        XCTAssertGreaterThan(sweeps, 1)
        XCTAssertEqual(rows.compactMap(\.filePath).count, 300)
        for row in rows {
            XCTAssertTrue(fileExists(database.photoFileURL(relativePath: row.filePath!)), "\(row.filePath!)")
        }
    }
}

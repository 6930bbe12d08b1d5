import GRDB
import XCTest
@testable import TouristStore

final class AppDatabaseSchemaTests: XCTestCase {
    func testMigrationCreatesPinTableWithSnakeCaseColumns() throws {
        // Given a new database
        let database = try makeEmptyDatabase()

        // When reading the pin table's columns
        let columns = try database.reader.read { db in try db.columns(in: "pin") }

        // Then they are the expected ones, with their types and nullability
        XCTAssertEqual(columns.map(\.name),
                       ["id", "latitude", "longitude", "created_at", "place_name", "place_name_source"])
        XCTAssertEqual(columns.map(\.type), ["INTEGER", "DOUBLE", "DOUBLE", "DOUBLE", "TEXT", "TEXT"])
        XCTAssertEqual(columns.dropFirst().map(\.isNotNull), [true, true, true, false, false])
    }

    func testMigrationCreatesPhotoTableWithSnakeCaseColumns() throws {
        let database = try makeEmptyDatabase()

        let columns = try database.reader.read { db in try db.columns(in: "photo") }

        XCTAssertEqual(columns.map(\.name), [
            "id", "pin_id", "flickr_id", "remote_url", "file_path",
            "owner_id", "owner_name", "title", "position", "created_at", "large_url", "license",
        ])
        let nullable = columns.dropFirst().filter { !$0.isNotNull }.map(\.name)
        XCTAssertEqual(nullable, ["file_path", "owner_id", "owner_name", "title", "large_url", "license"])
    }

    func testAPhotoKeepsItsBiggerSizeAndLicense() throws {
        let database = try makeEmptyDatabase()
        let pin = try database.insertPin(latitude: 1, longitude: 2)
        _ = try database.insertPhoto(Photo(pinId: try XCTUnwrap(pin.id), flickrId: "5", remoteURL: "https://x.example/5_n.jpg",
                                           largeURL: "https://x.example/5_b.jpg", license: "4", position: 0))

        let stored = try database.photos(ofPin: try XCTUnwrap(pin.id))
        XCTAssertEqual(stored.map(\.largeURL), ["https://x.example/5_b.jpg"])
        XCTAssertEqual(stored.map(\.license), ["4"])
    }

    func testPhotoReferencesPinWithCascadingDelete() throws {
        let database = try makeEmptyDatabase()

        let (foreignKeys, onDelete) = try database.reader.read { db in
            (try db.foreignKeys(on: "photo"),
             try String.fetchAll(db, sql: "SELECT on_delete FROM pragma_foreign_key_list('photo')"))
        }

        XCTAssertEqual(foreignKeys.count, 1)
        XCTAssertEqual(foreignKeys.first?.destinationTable, "pin")
        XCTAssertEqual(foreignKeys.first?.originColumns, ["pin_id"])
        XCTAssertEqual(foreignKeys.first?.destinationColumns, ["id"])
        XCTAssertEqual(onDelete, ["CASCADE"])
    }

    func testPhotoIsIndexedByPinAndUniqueByPinAndFlickrId() throws {
        let database = try makeEmptyDatabase()

        let (indexes, hasUniqueKey) = try database.reader.read { db in
            (try db.indexes(on: "photo"), try db.table("photo", hasUniqueKey: ["pin_id", "flickr_id"]))
        }

        let albumIndex = try XCTUnwrap(indexes.first { $0.name == "photo_on_pin_id_position" })
        XCTAssertEqual(albumIndex.columns, ["pin_id", "position"])
        XCTAssertFalse(albumIndex.isUnique)
        XCTAssertTrue(indexes.contains { $0.isUnique && $0.columns == ["pin_id", "flickr_id"] })
        XCTAssertTrue(hasUniqueKey)
    }

    func testMigrationCreatesSingleRowTablesAndPendingDeletionTable() throws {
        let database = try makeEmptyDatabase()

        let (viewport, windowState, pending) = try database.reader.read { db in
            (try db.columns(in: "viewport").map(\.name),
             try db.columns(in: "window_state").map(\.name),
             try db.primaryKey("pending_file_deletion").columns)
        }

        XCTAssertEqual(viewport, ["id", "latitude", "longitude", "zoom"])
        XCTAssertEqual(windowState, ["id", "width", "height", "is_maximized"])
        XCTAssertEqual(pending, ["path"])
    }

    func testMigrationCreatesTriggersThatReleasePhotoFiles() throws {
        let database = try makeEmptyDatabase()

        let triggers = try database.reader.read { db in
            try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'photo' ORDER BY name
                """)
        }

        XCTAssertEqual(triggers, [
            "photo_after_delete_release_file",
            "photo_after_update_of_file_path_release_old_file",
        ])
    }

    func testMigrationsAreRegisteredAsV1AndComplete() throws {
        let database = try makeEmptyDatabase()

        let (applied, complete) = try database.reader.read { db in
            (try AppDatabase.migrator.appliedIdentifiers(db),
             try AppDatabase.migrator.hasCompletedMigrations(db))
        }

        XCTAssertEqual(applied, ["v1", "v2-undoable-deletions", "v3-albums", "v4-place-names", "v5-photo-viewer", "v6-album-time",
                                 "v7-hidden-own-photos", "v8-plain-place-names"])
        XCTAssertTrue(complete)
    }

    func testForeignKeysAreEnforced() throws {
        let database = try makeEmptyDatabase()

        let enabled = try database.reader.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }

        XCTAssertEqual(enabled, true)
    }

    func testReopeningFileDatabaseKeepsDataAndRerunningMigratorIsNoOp() throws {
        // Given a file database with a pin, a photo and a viewport, then closed
        let paths = try makeTemporaryPaths()
        let pin: Pin
        let photo: Photo
        do {
            let database = try AppDatabase.open(paths: paths)
            pin = try database.insertPin(latitude: 48.85, longitude: 2.35)
            photo = try database.insertPhoto(makePhoto(pinId: try XCTUnwrap(pin.id), flickrId: "1"))
            try database.saveViewport(Viewport(latitude: 48, longitude: 2, zoom: 9))
        }

        // When reopening it and running the migrator again
        let reopened = try AppDatabase.open(paths: paths)
        try AppDatabase.migrator.migrate(reopened.dbWriter)

        // Then the data is still there, and no migration ran twice
        XCTAssertEqual(try reopened.pins(), [pin])
        XCTAssertEqual(try reopened.photos(ofPin: try XCTUnwrap(pin.id)), [photo])
        XCTAssertEqual(try reopened.viewport(), Viewport(latitude: 48, longitude: 2, zoom: 9))
        let applied = try reopened.reader.read { db in try AppDatabase.migrator.appliedIdentifiers(db) }
        XCTAssertEqual(applied, ["v1", "v2-undoable-deletions", "v3-albums", "v4-place-names", "v5-photo-viewer", "v6-album-time",
                                 "v7-hidden-own-photos", "v8-plain-place-names"])
    }

    func testOpenCreatesFoldersAndUsesWriteAheadLogging() throws {
        let paths = try makeTemporaryPaths()

        let database = try AppDatabase.open(paths: paths)

        XCTAssertTrue(fileExists(paths.databaseURL))
        XCTAssertTrue(fileExists(paths.photosFolder))
        XCTAssertTrue(fileExists(paths.tileCacheFolder))
        let journalMode = try database.reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(journalMode, "wal")
    }

    func testOpeningAFileThatIsNotADatabaseThrowsCorrupt() throws {
        // Given a database file filled with garbage
        let paths = try makeTemporaryPaths()
        try FileManager.default.createDirectory(at: paths.dataFolder, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 4096).write(to: paths.databaseURL)

        // When opening it, then the error says the database is damaged
        XCTAssertThrowsError(try AppDatabase.open(paths: paths)) { error in
            XCTAssertEqual(error as? StoreError, .corrupt(databaseURL: paths.databaseURL))
            XCTAssertTrue(error.localizedDescription.contains("is damaged"))
        }
    }
}

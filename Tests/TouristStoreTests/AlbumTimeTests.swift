import Foundation
import GRDB
import XCTest
@testable import TouristStore

/// An album's time ("2010s"): kept with the album, and any time in a database from before albums had one.
final class AlbumTimeTests: XCTestCase {
    /// An empty database with one pin (in Paris), and the pin's id.
    private func databaseWithAPin() throws -> (AppDatabase, Int64) {
        let database = try makeEmptyDatabase()
        return (database, try XCTUnwrap(database.insertPin(latitude: 48.85, longitude: 2.35).id))
    }

    func testAnAlbumKeepsTheYearsItsPhotosWereTakenIn() throws {
        // Given a pin
        let (database, pinId) = try databaseWithAPin()

        // When its album is replaced by one of the 2010s
        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 2, total: 37, perPage: 30,
                                            takenYears: 2010...2019), photos: [])

        // Then the album reads back with its time, and a later album of any time forgets it
        XCTAssertEqual(try database.album(ofPin: pinId)?.takenYears, 2010...2019)
        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 4, total: 95, perPage: 30), photos: [])
        XCTAssertNil(try database.album(ofPin: pinId)?.takenYears)
    }

    func testASingleYearIsKept() throws {
        let (database, pinId) = try databaseWithAPin()

        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 1, total: 4, perPage: 30,
                                            takenYears: 2015...2015), photos: [])

        XCTAssertEqual(try database.album(ofPin: pinId)?.takenYears, 2015...2015)
    }

    func testAnAlbumFromAnOlderDatabaseShowsAnyTime() throws {
        // Given a database made by the version before album times, with an album in it
        let folder = try makeTemporaryFolder()
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path,
                                      configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue, upTo: "v5-photo-viewer")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO pin(id, latitude, longitude, created_at) VALUES (1, 48.85, 2.35, 0)")
            try db.execute(sql: """
                INSERT INTO album(pin_id, page, pages, total, per_page, fetched_at) VALUES (1, 2, 4, 95, 30, 0)
                """)
        }

        // When the app opens it
        let database = try AppDatabase(queue, dataFolder: folder)

        // Then the album is as it was, of any time
        let album = try XCTUnwrap(database.album(ofPin: 1))
        XCTAssertEqual(album.page, 2)
        XCTAssertEqual(album.total, 95)
        XCTAssertNil(album.takenYears)
        let applied = try database.reader.read { db in try AppDatabase.migrator.appliedIdentifiers(db) }
        XCTAssertTrue(applied.contains("v6-album-time"))
    }
}

import GRDB
import XCTest
@testable import TouristStore

/// A pin's name: offline at once, online once, never from a place the pin has left.
final class PlaceNameTests: XCTestCase {
    func testAnOfflineNameIsReplacedByAnOnlineOneButNeverTheOtherWayRound() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8867, longitude: 2.3431).id)

        XCTAssertTrue(try database.namePin(id: id, "Paris, France", source: .offline, at: 48.8867, 2.3431))
        XCTAssertFalse(try database.namePin(id: id, "Saint-Ouen, France", source: .offline, at: 48.8867, 2.3431),
                       "an offline name is given once")
        XCTAssertTrue(try database.namePin(id: id, "Montmartre, Paris, France", source: .online, at: 48.8867, 2.3431))
        XCTAssertFalse(try database.namePin(id: id, "Paris, France", source: .offline, at: 48.8867, 2.3431))

        let pin = try XCTUnwrap(database.pin(id: id))
        XCTAssertEqual(pin.placeName, "Montmartre, Paris, France")
        XCTAssertEqual(pin.placeNameSource, .online)
    }

    func testAGeocodersNameIsStoredPlain() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 38.7223, longitude: -9.1393).id)

        XCTAssertTrue(try database.namePin(id: id, "Lisboa\u{202E}gpx.exe\u{202C},\n Portugal", source: .online, at: 38.7223, -9.1393))

        XCTAssertEqual(try database.pin(id: id)?.placeName, "Lisboagpx.exe, Portugal")
    }

    func testNamesStoredBeforeTheyWereMadePlainAreCleanedOnOpening() throws {
        // Given a database of the version before, with a reversing name, a long one and a plain one
        let folder = try makeTemporaryFolder()
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("old.sqlite").path,
                                      configuration: AppDatabase.makeConfiguration())
        try AppDatabase.migrator.migrate(queue, upTo: "v7-hidden-own-photos")
        let long = String(repeating: "n", count: 10_257)
        try queue.write { db in
            for (id, name) in [(1, "\u{202E}gpx.exe Trap"), (2, long), (3, "Porto")] {
                try db.execute(sql: "INSERT INTO pin(id, latitude, longitude, created_at, place_name) VALUES (?, 41, -8, 0, ?)",
                               arguments: [id, name])
            }
        }

        // When the app opens it
        let database = try AppDatabase(queue, dataFolder: folder)

        // Then the names are plain and capped, the plain one as it was
        XCTAssertEqual(try database.pin(id: 1)?.placeName, "gpx.exe Trap")
        XCTAssertEqual(try database.pin(id: 2)?.placeName, String(repeating: "n", count: 199) + "…")
        XCTAssertEqual(try database.pin(id: 3)?.placeName, "Porto")
    }

    func testANameLookedUpBeforeAMoveIsNotStored() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8867, longitude: 2.3431).id)
        try database.movePin(id: id, latitude: 51.5, longitude: -0.12, clearingAlbum: true)

        XCTAssertFalse(try database.namePin(id: id, "Montmartre, Paris, France", source: .online, at: 48.8867, 2.3431))
        XCTAssertNil(try database.pin(id: id)?.placeName)
    }

    func testMovingAPinSomewhereElseForgetsItsNameButANudgeKeepsIt() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8867, longitude: 2.3431).id)
        try database.namePin(id: id, "Montmartre, Paris, France", source: .online, at: 48.8867, 2.3431)

        try database.movePin(id: id, latitude: 48.88671, longitude: 2.34311, clearingAlbum: true)
        XCTAssertEqual(try database.pin(id: id)?.placeName, "Montmartre, Paris, France", "a nudge keeps the name")

        try database.movePin(id: id, latitude: 51.5, longitude: -0.12, clearingAlbum: true)
        let moved = try XCTUnwrap(database.pin(id: id))
        XCTAssertNil(moved.placeName)
        XCTAssertNil(moved.placeNameSource)
        XCTAssertEqual(try database.pinsToName(.offline, limit: 10).map(\.id), [id])
    }

    func testPinsToNameAreTheNewestFirstAndSkipWhatIsAsked() throws {
        let database = try makeEmptyDatabase()
        let ids = try (0..<4).map { try XCTUnwrap(database.insertPin(latitude: Double($0), longitude: 0).id) }
        try database.namePin(id: ids[0], "A", source: .online, at: 0, 0)
        try database.namePin(id: ids[1], "B", source: .offline, at: 1, 0)

        XCTAssertEqual(try database.pinsToName(.offline, limit: 10).map(\.id), [ids[3], ids[2]])
        XCTAssertEqual(try database.pinsToName(.online, limit: 10).map(\.id), [ids[3], ids[2], ids[1]])
        XCTAssertEqual(try database.pinsToName(.online, limit: 10, skipping: [ids[3]]).map(\.id), [ids[2], ids[1]])
        XCTAssertEqual(try database.pinsToName(.online, limit: 1).map(\.id), [ids[3]])
    }

    func testUndoingADeletionBringsTheNameBack() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8867, longitude: 2.3431).id)
        try database.namePin(id: id, "Montmartre, Paris, France", source: .online, at: 48.8867, 2.3431)
        let deletion = try database.deletePinForUndo(id: id)
        try database.undoPinDeletion(deletion)
        XCTAssertEqual(try database.pin(id: id)?.placeName, "Montmartre, Paris, France")
    }

    func testTheSourceColumnTakesOnlyKnownSources() throws {
        let database = try makeEmptyDatabase()
        let id = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 2).id)
        XCTAssertThrowsError(try database.dbWriter.write { db in
            try db.execute(sql: "UPDATE pin SET place_name_source = 'guess' WHERE id = ?", arguments: [id])
        })
    }
}

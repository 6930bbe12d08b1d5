import Foundation
import GRDB
import XCTest
@testable import TouristStore

final class ViewportAndWindowStateTests: XCTestCase {
    func testViewportIsNilBeforeTheFirstSave() throws {
        let database = try makeEmptyDatabase()

        XCTAssertNil(try database.viewport())
    }

    func testSavedViewportIsReadBack() throws {
        let database = try makeEmptyDatabase()
        let viewport = Viewport(latitude: 48.8566, longitude: 2.3522, zoom: 12)

        try database.saveViewport(viewport)

        XCTAssertEqual(try database.viewport(), viewport)
    }

    func testSavingViewportAgainReplacesTheSingleRow() throws {
        let database = try makeEmptyDatabase()
        try database.saveViewport(.world)

        try database.saveViewport(Viewport(latitude: -33.86, longitude: 151.2, zoom: 10))

        XCTAssertEqual(try database.viewport(), Viewport(latitude: -33.86, longitude: 151.2, zoom: 10))
        let rows = try database.reader.read { db in try Row.fetchAll(db, sql: "SELECT id FROM viewport") }
        XCTAssertEqual(rows, [["id": 1]])
    }

    func testViewportTableRejectsASecondRow() throws {
        let database = try makeEmptyDatabase()

        XCTAssertThrowsError(try database.write { db in
            try db.execute(sql: "INSERT INTO viewport (id, latitude, longitude, zoom) VALUES (2, 0, 0, 1)")
        })
        XCTAssertNil(try database.viewport())
    }

    func testWorldViewportShowsTheWholeWorld() {
        XCTAssertEqual(Viewport.world, Viewport(latitude: 20, longitude: 0, zoom: 2))
    }

    func testBackgroundViewportSavesAreAppliedInCallOrder() throws {
        // Given many background saves
        let database = try makeEmptyDatabase()
        let completions = Completions()
        let done = expectation(description: "all saves completed")
        done.expectedFulfillmentCount = 50

        // When they are issued one after the other
        for zoom in 1...50 {
            database.saveViewportInBackground(Viewport(latitude: 0, longitude: 0, zoom: zoom)) { error in
                completions.append(zoom, error)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)

        // Then they completed without error in call order, and the last one is stored
        XCTAssertEqual(completions.zooms, Array(1...50))
        XCTAssertTrue(completions.errors.isEmpty)
        XCTAssertEqual(try database.viewport()?.zoom, 50)
    }

    func testSynchronousSaveWinsOverEarlierBackgroundSaves() throws {
        // Given background saves queued on a file database (separate reader connections)
        let database = try AppDatabase.open(paths: try makeTemporaryPaths())
        for zoom in 1...50 {
            database.saveViewportInBackground(Viewport(latitude: 0, longitude: 0, zoom: zoom))
        }

        // When the same thread then saves synchronously
        try database.saveViewport(Viewport(latitude: 1, longitude: 1, zoom: 99))

        // Then the synchronous save is the one stored, immediately and after the queue drained
        XCTAssertEqual(try database.viewport(), Viewport(latitude: 1, longitude: 1, zoom: 99))
        let drained = expectation(description: "queue drained")
        database.saveViewportInBackground(Viewport(latitude: 2, longitude: 2, zoom: 100)) { _ in drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(try database.viewport()?.zoom, 100)
    }

    func testWindowStateIsNilBeforeTheFirstSave() throws {
        let database = try makeEmptyDatabase()

        XCTAssertNil(try database.windowState())
    }

    func testSavedWindowStateIsReadBackAndReplaced() throws {
        let database = try makeEmptyDatabase()
        try database.saveWindowState(WindowState(width: 800, height: 600, isMaximized: false))

        try database.saveWindowState(WindowState(width: 1280, height: 720, isMaximized: true))

        XCTAssertEqual(try database.windowState(), WindowState(width: 1280, height: 720, isMaximized: true))
        let count = try database.reader.read { db in try WindowState.fetchCount(db) }
        XCTAssertEqual(count, 1)
    }
}

/// Collects completion calls from the store's completion queue.
private final class Completions: @unchecked Sendable {
    private let lock = NSLock()
    private var storedZooms: [Int] = []
    private var storedErrors: [any Error] = []

    func append(_ zoom: Int, _ error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        storedZooms.append(zoom)
        if let error { storedErrors.append(error) }
    }

    var zooms: [Int] { lock.withLock { storedZooms } }
    var errors: [any Error] { lock.withLock { storedErrors } }
}

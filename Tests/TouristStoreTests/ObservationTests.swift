import GRDB
import Synchronization
import XCTest
@testable import TouristStore

final class ObservationTests: XCTestCase {
    @MainActor
    func testPinsObservationDeliversNewArrayAfterInsert() async throws {
        // Given a started pins observation, which delivers the current (empty) list at once
        let database = try makeEmptyDatabase()
        var values: [[Pin]] = []
        let inserted = expectation(description: "pins after insert")
        let cancellable = database.observePins().start(
            in: database.reader,
            scheduling: .immediate,
            onError: { error in XCTFail("\(error)") },
            onChange: { pins in
                values.append(pins)
                if values.count == 2 { inserted.fulfill() }
            })
        defer { cancellable.cancel() }
        XCTAssertEqual(values, [[]])

        // When a pin is inserted
        let pin = try database.insertPin(latitude: 1, longitude: 2)

        // Then the observation delivers the new list
        await fulfillment(of: [inserted], timeout: 5)
        XCTAssertEqual(values, [[], [pin]])
    }

    @MainActor
    func testThePositionsObservationIsNotRunForNamesAndTransformsOffTheMainThread() async throws {
        // A file database written off the main thread, as the app has it.
        let database = try AppDatabase.open(paths: makeTemporaryPaths())
        let pin = try database.insertPin(latitude: 1, longitude: 2)
        let id = try XCTUnwrap(pin.id)
        let onMain = Mutex(false)
        let runs = Mutex(0)
        var delivered: [[Double]] = []
        let first = expectation(description: "the current positions")
        let moved = expectation(description: "the positions after a move")
        let observation = database.observePinPositions({ pins in
            if Thread.isMainThread { onMain.withLock { $0 = true } }
            runs.withLock { $0 += 1 }
            return pins.map(\.latitude)
        }, onError: { error in XCTFail("\(error)") }, onChange: { latitudes in
            delivered.append(latitudes)
            if delivered.count == 1 { first.fulfill() }
            if delivered.count == 2 { moved.fulfill() }
        })
        defer { observation.cancel() }
        await fulfillment(of: [first], timeout: 5)
        try await Task.sleep(for: .milliseconds(100))  // a pause, not a wait: a start-up run would be counted by now
        let runsBeforeNaming = runs.withLock { $0 }

        // A name changes no position: the positions are not even read again.
        try await Task.detached {
            XCTAssertTrue(try database.namePin(id: id, "Somewhere", source: .offline, at: 1, 2))
        }.value
        try await Task.sleep(for: .milliseconds(200))  // a pause, not a wait: it proves that naming runs nothing
        XCTAssertEqual(runs.withLock { $0 }, runsBeforeNaming, "naming a pin does not read every position")

        // A move is delivered.
        try await Task.detached {
            try database.movePin(id: id, latitude: 3, longitude: 2, clearingAlbum: false)
        }.value
        await fulfillment(of: [moved], timeout: 5)
        XCTAssertEqual(delivered, [[1], [3]])
        XCTAssertFalse(onMain.withLock { $0 }, "pins are transformed on a database thread")
    }

    @MainActor
    func testTheNamesObservationDeliversNamesAndTheirSourceButIsNotRunForANudge() async throws {
        let database = try AppDatabase.open(paths: makeTemporaryPaths())
        let pin = try database.insertPin(latitude: 1, longitude: 2)
        let id = try XCTUnwrap(pin.id)
        let runs = Mutex(0)
        var delivered: [[PinNaming]] = []
        let first = expectation(description: "the current names")
        let named = expectation(description: "the names after naming")
        let observation = database.observePinNames({ names in
            runs.withLock { $0 += 1 }
            return names
        }, onError: { error in XCTFail("\(error)") }, onChange: { names in
            delivered.append(names)
            if delivered.count == 1 { first.fulfill() }
            if delivered.count == 2 { named.fulfill() }
        })
        defer { observation.cancel() }
        await fulfillment(of: [first], timeout: 5)
        try await Task.sleep(for: .milliseconds(100))  // a pause, not a wait: a start-up run would be counted by now
        let runsBeforeMoving = runs.withLock { $0 }

        try await Task.detached {
            // A nudge (a few metres) keeps the name; a real move would clear it.
            try database.movePin(id: id, latitude: 1.00001, longitude: 2, clearingAlbum: false)
        }.value
        try await Task.sleep(for: .milliseconds(200))  // a pause, not a wait: it proves that a nudge runs nothing
        XCTAssertEqual(runs.withLock { $0 }, runsBeforeMoving, "nudging a pin does not read every name")

        try await Task.detached {
            XCTAssertTrue(try database.namePin(id: id, "Somewhere", source: .online, at: 1.00001, 2))
        }.value
        await fulfillment(of: [named], timeout: 5)
        XCTAssertEqual(delivered, [[PinNaming(id: id, placeName: nil, source: nil)],
                                   [PinNaming(id: id, placeName: "Somewhere", source: .online)]])
    }

    func testPhotosObservationDeliversTheAlbumAfterChanges() async throws {
        // Given an observation of one pin's album
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        var albums = database.observePhotos(ofPin: pinId).values(in: database.reader).makeAsyncIterator()
        let initial = try await albums.next()

        // When a photo is added, then downloaded
        let photo = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1"))
        let afterInsert = try await albums.next()
        try database.setPhotoFile(id: try XCTUnwrap(photo.id), relativePath: "photos/\(pinId)/1.jpg")
        let afterDownload = try await albums.next()

        // Then each change is delivered
        XCTAssertEqual(initial, [])
        XCTAssertEqual(afterInsert, [photo])
        XCTAssertEqual(afterDownload?.first?.filePath, "photos/\(pinId)/1.jpg")
    }
}

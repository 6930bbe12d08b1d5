import GRDB
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

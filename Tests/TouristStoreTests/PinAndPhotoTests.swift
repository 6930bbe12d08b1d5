import GRDB
import XCTest
@testable import TouristStore

final class PinAndPhotoTests: XCTestCase {
    func testInsertedPinHasIdAndIsFetchedEqual() throws {
        let database = try makeEmptyDatabase()

        let pin = try database.insertPin(latitude: 35.68, longitude: 139.69)

        let id = try XCTUnwrap(pin.id)
        XCTAssertEqual(try database.pin(id: id), pin)
        XCTAssertEqual(pin.latitude, 35.68)
        XCTAssertEqual(pin.longitude, 139.69)
    }

    func testPinsAreListedInInsertionOrder() throws {
        let database = try makeEmptyDatabase()
        let first = try database.insertPin(latitude: 1, longitude: 1)
        let second = try database.insertPin(latitude: 2, longitude: 2)

        XCTAssertEqual(try database.pins(), [first, second])
    }

    func testMovingPinChangesItsCoordinatesAndKeepsItsPhotos() throws {
        let database = try makeEmptyDatabase()
        let pin = try database.insertPin(latitude: 1, longitude: 1)
        let pinId = try XCTUnwrap(pin.id)
        let photo = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1"))

        try database.movePin(id: pinId, latitude: 10, longitude: 20)

        let moved = try XCTUnwrap(database.pin(id: pinId))
        XCTAssertEqual(moved.latitude, 10)
        XCTAssertEqual(moved.longitude, 20)
        XCTAssertEqual(moved.createdAt, pin.createdAt)
        XCTAssertEqual(try database.photos(ofPin: pinId), [photo])
    }

    func testMovingMissingPinThrowsPinNotFound() throws {
        let database = try makeEmptyDatabase()

        XCTAssertThrowsError(try database.movePin(id: 42, latitude: 0, longitude: 0)) { error in
            XCTAssertEqual(error as? StoreError, .pinNotFound(id: 42))
        }
    }

    func testPinNavigatesToItsPhotosInAlbumOrder() throws {
        // Given a pin whose photos were inserted out of order, and another pin's photo
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let otherPinId = try XCTUnwrap(database.insertPin(latitude: 2, longitude: 2).id)
        let third = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "c", position: 2))
        let first = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "a", position: 0))
        let second = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "b", position: 1))
        _ = try database.insertPhoto(makePhoto(pinId: otherPinId, flickrId: "a", position: 0))

        // When following the pin's association
        let pin = try XCTUnwrap(database.pin(id: pinId))
        let navigated = try database.reader.read { db in try pin.photos.fetchAll(db) }

        // Then the photos come in album order, the same as photos(ofPin:)
        XCTAssertEqual(navigated, [first, second, third])
        XCTAssertEqual(try database.photos(ofPin: pinId), [first, second, third])
    }

    func testPhotoNavigatesToItsPin() throws {
        let database = try makeEmptyDatabase()
        let pin = try database.insertPin(latitude: 1, longitude: 1)
        let photo = try database.insertPhoto(makePhoto(pinId: try XCTUnwrap(pin.id), flickrId: "1"))

        let navigated = try database.reader.read { db in try photo.pin.fetchOne(db) }

        XCTAssertEqual(navigated, pin)
    }

    func testInsertedPhotoKeepsAllItsFields() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)

        let photo = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "52123", position: 3))

        let fetched = try XCTUnwrap(database.photos(ofPin: pinId).first)
        XCTAssertNotNil(photo.id)
        XCTAssertEqual(fetched, photo)
        XCTAssertEqual(fetched.remoteURL, "https://live.staticflickr.com/65535/52123_secret_q.jpg")
        XCTAssertNil(fetched.filePath)
    }

    func testDeletingPinCascadesToItsPhotos() throws {
        // Given two pins with photos
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let keptPinId = try XCTUnwrap(database.insertPin(latitude: 2, longitude: 2).id)
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1"))
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "2"))
        let kept = try database.insertPhoto(makePhoto(pinId: keptPinId, flickrId: "3"))

        // When deleting the first pin
        try database.deletePin(id: pinId)

        // Then its photos are gone, the other pin's remain
        XCTAssertNil(try database.pin(id: pinId))
        XCTAssertEqual(try database.photos(ofPin: pinId), [])
        let allPhotos = try database.reader.read { db in try Photo.fetchAll(db) }
        XCTAssertEqual(allPhotos, [kept])
    }

    func testDeletingMissingPinDoesNothing() throws {
        let database = try makeEmptyDatabase()
        let pin = try database.insertPin(latitude: 1, longitude: 1)

        try database.deletePin(id: 999)

        XCTAssertEqual(try database.pins(), [pin])
    }

    func testInsertingSameFlickrPhotoTwiceInOnePinThrowsDuplicatePhoto() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let original = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "52123"))

        XCTAssertThrowsError(try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "52123", position: 1))) { error in
            XCTAssertEqual(error as? StoreError, .duplicatePhoto(pinId: pinId, flickrId: "52123"))
        }
        XCTAssertEqual(try database.photos(ofPin: pinId), [original])
    }

    func testSameFlickrPhotoMayBelongToTwoPins() throws {
        let database = try makeEmptyDatabase()
        let firstPinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let secondPinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)

        _ = try database.insertPhoto(makePhoto(pinId: firstPinId, flickrId: "52123"))
        _ = try database.insertPhoto(makePhoto(pinId: secondPinId, flickrId: "52123"))

        XCTAssertEqual(try database.photos(ofPin: firstPinId).count, 1)
        XCTAssertEqual(try database.photos(ofPin: secondPinId).count, 1)
    }

    func testInsertingPhotoOfMissingPinThrowsPinNotFound() throws {
        let database = try makeEmptyDatabase()

        XCTAssertThrowsError(try database.insertPhoto(makePhoto(pinId: 7, flickrId: "1"))) { error in
            XCTAssertEqual(error as? StoreError, .pinNotFound(id: 7))
        }
    }

    func testDeletingAllPhotosOfPinEmptiesOnlyThatAlbum() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let otherPinId = try XCTUnwrap(database.insertPin(latitude: 2, longitude: 2).id)
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "1"))
        _ = try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "2"))
        let kept = try database.insertPhoto(makePhoto(pinId: otherPinId, flickrId: "1"))

        let deleted = try database.deletePhotos(ofPin: pinId)

        XCTAssertEqual(deleted, 2)
        XCTAssertEqual(try database.photos(ofPin: pinId), [])
        XCTAssertEqual(try database.photos(ofPin: otherPinId), [kept])
        XCTAssertNotNil(try database.pin(id: pinId))
    }
}

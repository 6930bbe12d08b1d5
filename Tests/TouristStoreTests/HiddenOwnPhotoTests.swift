import Foundation
import GRDB
import XCTest
@testable import TouristStore

/// An own photo removed from an album is hidden there only, and comes back with Undo; a pin's deletion forgets them.
final class HiddenOwnPhotoTests: XCTestCase {
    func testAPhotoHiddenFromOneAlbumStaysInOthers() throws {
        let database = try makeEmptyDatabase()
        let paris = try XCTUnwrap(database.insertPin(latitude: 48.85, longitude: 2.35).id)
        let versailles = try XCTUnwrap(database.insertPin(latitude: 48.80, longitude: 2.12).id)

        try database.setOwnPhoto("/home/u/Pictures/a.jpg", hidden: true, inAlbumOfPin: paris)
        try database.setOwnPhoto("/home/u/Pictures/a.jpg", hidden: true, inAlbumOfPin: paris) // twice is once

        XCTAssertEqual(try database.hiddenOwnPhotos(ofPin: paris), ["/home/u/Pictures/a.jpg"])
        XCTAssertEqual(try database.hiddenOwnPhotos(ofPin: versailles), [])

        try database.setOwnPhoto("/home/u/Pictures/b.jpg", hidden: true, inAlbumOfPin: versailles)
        XCTAssertEqual(try database.hiddenOwnPhotos(ofPins: [paris, versailles, 999]),
                       [paris: ["/home/u/Pictures/a.jpg"], versailles: ["/home/u/Pictures/b.jpg"]])
        XCTAssertEqual(try database.hiddenOwnPhotos(ofPins: []), [:])

        try database.setOwnPhoto("/home/u/Pictures/a.jpg", hidden: false, inAlbumOfPin: paris)
        XCTAssertEqual(try database.hiddenOwnPhotos(ofPin: paris), [])
    }

    func testDeletingThePinForgetsWhatItsAlbumHid() throws {
        let database = try makeEmptyDatabase()
        let pin = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 2).id)
        try database.setOwnPhoto("/p/b.jpg", hidden: true, inAlbumOfPin: pin)

        try database.deletePin(id: pin)

        let rows = try database.reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM hidden_own_photo") }
        XCTAssertEqual(rows, 0)
    }
}

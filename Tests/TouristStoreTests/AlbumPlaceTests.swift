import XCTest
@testable import TouristStore

/// A pin nudged a few hundred metres keeps its album; a meaningful move forgets it (Flickr searches
/// 5 km around the pin, so the nudged pin's photos are still of its place).
final class AlbumPlaceTests: XCTestCase {
    private let eiffelTower = (latitude: 48.858_37, longitude: 2.294_48)

    /// A place `metres` north of the Eiffel Tower (one degree of latitude is about 111.2 km).
    private func north(_ metres: Double) -> (latitude: Double, longitude: Double) {
        (eiffelTower.latitude + metres / 111_195, eiffelTower.longitude)
    }

    func testDistanceMatchesAKnownOne() {
        // Eiffel Tower to Notre-Dame de Paris: about 4.1 km.
        let distance = AlbumPlace.distanceMetres(eiffelTower, (48.852_97, 2.349_88))
        XCTAssertEqual(distance, 4_110, accuracy: 40)
        XCTAssertTrue(AlbumPlace.isSame(eiffelTower, north(100)))
        XCTAssertFalse(AlbumPlace.isSame(eiffelTower, north(400)))
    }

    private func pinWithAlbum(in database: AppDatabase) throws -> Int64 {
        let pinId = try XCTUnwrap(database.insertPin(latitude: eiffelTower.latitude,
                                                     longitude: eiffelTower.longitude).id)
        _ = try database.replaceAlbum(Album(pinId: pinId, page: 1, pages: 3, total: 60, perPage: 30),
                                      photos: [makePhoto(pinId: pinId, flickrId: "1")])
        return pinId
    }

    func testNudgingAPinKeepsItsAlbum() throws {
        let database = try makeEmptyDatabase()
        let pinId = try pinWithAlbum(in: database)

        let nudged = north(100)
        try database.movePin(id: pinId, latitude: nudged.latitude, longitude: nudged.longitude, clearingAlbum: true)

        let contents = try database.albumContents(ofPin: pinId)
        XCTAssertNotNil(contents.album)
        XCTAssertEqual(contents.photos.map(\.flickrId), ["1"])
        XCTAssertEqual(try database.pin(id: pinId)?.latitude, nudged.latitude, "the pin itself moved")
    }

    func testMovingAPinMeaningfullyForgetsItsAlbum() throws {
        let database = try makeEmptyDatabase()
        let pinId = try pinWithAlbum(in: database)

        let elsewhere = north(2_000)
        try database.movePin(id: pinId, latitude: elsewhere.latitude, longitude: elsewhere.longitude,
                             clearingAlbum: true)

        let contents = try database.albumContents(ofPin: pinId)
        XCTAssertNil(contents.album)
        XCTAssertTrue(contents.photos.isEmpty)
    }

    func testAnAlbumSearchedANudgeAwayIsSavedAndOneFarAwayIsRefused() throws {
        let database = try makeEmptyDatabase()
        let pinId = try XCTUnwrap(database.insertPin(latitude: eiffelTower.latitude,
                                                     longitude: eiffelTower.longitude).id)
        let album = Album(pinId: pinId, page: 1, pages: 1, total: 1, perPage: 30)

        XCTAssertThrowsError(try database.replaceAlbum(album, photos: [makePhoto(pinId: pinId, flickrId: "far")],
                                                       searchedAt: north(1_000))) { error in
            XCTAssertEqual(error as? StoreError, .pinMoved(id: pinId))
        }
        XCTAssertNil(try database.albumContents(ofPin: pinId).album, "nothing written for the old place")

        _ = try database.replaceAlbum(album, photos: [makePhoto(pinId: pinId, flickrId: "near")],
                                      searchedAt: north(50))
        XCTAssertEqual(try database.albumContents(ofPin: pinId).photos.map(\.flickrId), ["near"])
    }
}

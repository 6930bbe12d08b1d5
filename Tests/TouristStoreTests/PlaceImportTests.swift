import Foundation
import XCTest
@testable import TouristStore

/// Places imported from a file become pins whole, skipping places that are already pins; an export lists every pin.
final class PlaceImportTests: XCTestCase {
    private var database: AppDatabase!

    override func setUpWithError() throws {
        database = try makeEmptyDatabase()
    }

    func testImportedPlacesBecomePinsWithTheirNamesAndDates() throws {
        let saved = Date(timeIntervalSinceReferenceDate: 600_000_000)
        let result = try database.importPlaces([
            ImportedPlace(name: "Eiffel Tower", latitude: 48.8584, longitude: 2.2945, createdAt: saved),
            ImportedPlace(name: "  ", latitude: -33.8568, longitude: 151.2153, createdAt: nil),
        ], duplicateRadiusMetres: 5_000, now: Date(timeIntervalSinceReferenceDate: 700_000_000))

        XCTAssertEqual(result.added.count, 2)
        XCTAssertEqual(result.duplicates, 0)
        let pins = try database.pins()
        XCTAssertEqual(pins.map(\.placeName), ["Eiffel Tower", nil])
        // A file's name is final; a place without one is left for the namer.
        XCTAssertEqual(pins.map(\.placeNameSource), [.online, nil])
        XCTAssertEqual(pins.map(\.createdAt), [saved, Date(timeIntervalSinceReferenceDate: 700_000_000)])
        XCTAssertEqual(pins[1].latitude, -33.8568)
        XCTAssertEqual(try database.pinsToName(.offline, limit: 10).map(\.id), [pins[1].id])
    }

    func testAPlaceWithinTheRadiusOfAPinIsSkipped() throws {
        _ = try database.insertPin(latitude: 48.8584, longitude: 2.2945)

        let result = try database.importPlaces([
            ImportedPlace(name: "Champ de Mars", latitude: 48.8556, longitude: 2.2986, createdAt: nil), // 0.4 km
            ImportedPlace(name: "Versailles", latitude: 48.8049, longitude: 2.1204, createdAt: nil),    // 14 km
        ], duplicateRadiusMetres: 5_000)

        XCTAssertEqual(result.duplicates, 1)
        XCTAssertEqual(try database.pins().compactMap(\.placeName), ["Versailles"])
    }

    func testDuplicatesAreFoundAcrossTheAntimeridianAndNearThePole() throws {
        _ = try database.insertPin(latitude: -16.5, longitude: 179.99)
        _ = try database.insertPin(latitude: 89.9, longitude: 0)

        let (new, duplicates) = try database.newPlaces(among: [
            ImportedPlace(name: "Across", latitude: -16.5, longitude: -179.99, createdAt: nil), // 2 km
            ImportedPlace(name: "Far side of the pole", latitude: 89.9, longitude: 180, createdAt: nil), // 22 km
            ImportedPlace(name: "Round the pole", latitude: 89.92, longitude: 90, createdAt: nil), // 11 km
            ImportedPlace(name: "Near the pole", latitude: 89.93, longitude: 20, createdAt: nil), // 3.5 km
        ], duplicateRadiusMetres: 5_000)

        XCTAssertEqual(duplicates, 2)
        XCTAssertEqual(new.map(\.name), ["Far side of the pole", "Round the pole"])
    }

    func testTheSameFileImportedTwiceAddsNothingTheSecondTime() throws {
        let places = (0..<50).map {
            ImportedPlace(name: "Place \($0)", latitude: Double($0) - 25, longitude: Double($0) * 3 - 70, createdAt: nil)
        }
        XCTAssertEqual(try database.importPlaces(places, duplicateRadiusMetres: 5_000).added.count, 50)

        let again = try database.importPlaces(places, duplicateRadiusMetres: 5_000)

        XCTAssertEqual(again.added, [])
        XCTAssertEqual(again.duplicates, 50)
        XCTAssertEqual(try database.pins().count, 50)
    }

    func testAnExportListsEveryPinWithItsPhotoCount() throws {
        let first = try database.insertPin(latitude: 1, longitude: 2)
        _ = try database.insertPin(latitude: 3, longitude: 4)
        let pinId = try XCTUnwrap(first.id)
        for position in 0..<3 {
            _ = try database.insertPhoto(Photo(pinId: pinId, flickrId: "\(position)", remoteURL: "https://example.com/\(position).jpg", position: position))
        }

        let places = try database.exportablePlaces()

        XCTAssertEqual(places.map(\.latitude), [1, 3])
        XCTAssertEqual(places.map(\.photoCount), [3, 0])
    }
}

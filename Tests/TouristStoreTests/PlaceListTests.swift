import GRDB
import XCTest
@testable import TouristStore

/// "My Places": a bounded page of places, newest first or by name, filtered by words of the name.
final class PlaceListTests: XCTestCase {
    private func makeLibrary() throws -> (AppDatabase, [Int64]) {
        let database = try makeEmptyDatabase()
        var ids: [Int64] = []
        for (name, latitude) in [("Paris, Île-de-France, France", 48.85), ("Tokyo, Japan", 35.68),
                                 ("Montmartre, Paris, France", 48.88), (nil, 10.0), ("austin, Texas, United States", 30.27)] {
            let pin = try database.insertPin(latitude: latitude, longitude: 2)
            let id = try XCTUnwrap(pin.id)
            if let name { XCTAssertTrue(try database.namePin(id: id, name, source: .offline, at: latitude, 2)) }
            ids.append(id)
        }
        return (database, ids)
    }

    private func list(_ database: AppDatabase, _ query: PlaceListQuery) throws -> PlaceList {
        try database.reader.read { db in try AppDatabase.placeList(db, query) }
    }

    func testNewestFirstWithPhotoCountsAndTheFirstDownloadedPhoto() throws {
        let (database, ids) = try makeLibrary()
        let paris = ids[0]
        try database.insertPhoto(makePhoto(pinId: paris, flickrId: "1"))
        let second = try database.insertPhoto(makePhoto(pinId: paris, flickrId: "2"))
        try database.setPhotoFile(id: try XCTUnwrap(second.id), relativePath: "photos/\(paris)/2.jpg")

        let all = try list(database, PlaceListQuery())
        XCTAssertEqual(all.places.map(\.id), ids.reversed())
        XCTAssertEqual(all.matching, 5)
        XCTAssertEqual(all.total, 5)
        let row = try XCTUnwrap(all.places.last)
        XCTAssertEqual(row.photoCount, 2)
        XCTAssertEqual(row.firstPhotoPath, "photos/\(paris)/2.jpg", "the first photo that has a file")
        XCTAssertEqual(row.placeName, "Paris, Île-de-France, France")
        XCTAssertEqual(all.places.first?.photoCount, 0)
    }

    func testByNameIgnoringCaseWithUnnamedPinsLast() throws {
        let (database, _) = try makeLibrary()
        let names = try list(database, PlaceListQuery(order: .name)).places.map(\.placeName)
        XCTAssertEqual(names, ["austin, Texas, United States", "Montmartre, Paris, France",
                               "Paris, Île-de-France, France", "Tokyo, Japan", nil])
    }

    func testEveryWordOfTheFilterMustBeInTheName() throws {
        let (database, _) = try makeLibrary()
        let paris = try list(database, PlaceListQuery(order: .name, filter: "paris"))
        XCTAssertEqual(paris.places.map(\.placeName), ["Montmartre, Paris, France", "Paris, Île-de-France, France"])
        XCTAssertEqual(paris.matching, 2)
        XCTAssertEqual(paris.total, 5)
        XCTAssertEqual(try list(database, PlaceListQuery(filter: " france  montmartre ")).matching, 1)
        XCTAssertEqual(try list(database, PlaceListQuery(filter: "100%")).matching, 0, "% is a character, not a wildcard")
        XCTAssertEqual(try list(database, PlaceListQuery(filter: "_")).matching, 0)
    }

    func testTheLimitBoundsThePageButNotTheCounts() throws {
        let (database, ids) = try makeLibrary()
        let page = try list(database, PlaceListQuery(limit: 2))
        XCTAssertEqual(page.places.map(\.id), [ids[4], ids[3]])
        XCTAssertEqual(page.matching, 5)
    }
}

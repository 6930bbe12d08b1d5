@testable import OwnPhotos
import XCTest

/// The index's queries on an in-memory index, its rows written directly.
final class OwnPhotoIndexTests: XCTestCase {
    private let eiffel = (latitude: 48.8584, longitude: 2.2945)

    private func record(_ path: String, _ latitude: Double, _ longitude: Double, year: Int?) -> FileRecord {
        let taken = year.flatMap { ExifDate.utcCalendar.date(from: DateComponents(year: $0, month: 6, day: 1)) }
        return FileRecord(path: path, stamp: FileStamp(size: 1, modified: 1),
                          reading: .photo(OwnPhoto(path: path, latitude: latitude, longitude: longitude, takenAt: taken, orientation: 1)))
    }

    private func parisIndex() throws -> OwnPhotoIndex {
        let index = try OwnPhotoIndex.inMemory()
        try index.write([
            record("/p/eiffel.jpg", eiffel.latitude, eiffel.longitude, year: 2019),
            record("/p/3km.jpg", eiffel.latitude + 3 * degreesPerKilometre, eiffel.longitude, year: 2020),
            record("/p/30km.jpg", eiffel.latitude + 30 * degreesPerKilometre, eiffel.longitude, year: 2018),
            record("/p/b-undated.jpg", eiffel.latitude, eiffel.longitude, year: nil),
            record("/p/a-undated.jpg", eiffel.latitude, eiffel.longitude + 1 * degreesPerKilometre, year: nil),
            FileRecord(path: "/p/plain.jpg", stamp: FileStamp(size: 1, modified: 1), reading: .noPosition),
            FileRecord(path: "/p/broken.jpg", stamp: FileStamp(size: 1, modified: 1), reading: .unreadable),
            FileRecord(path: "/p/huge.jpg", stamp: FileStamp(size: 1, modified: 1), reading: .tooLarge),
        ])
        return index
    }

    func testNearbyPhotosAreWithinTheRadiusNewestFirstUndatedLast() async throws {
        let index = try parisIndex()
        let near = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 5, limit: 100)
        XCTAssertEqual(near.map(\.path), ["/p/3km.jpg", "/p/eiffel.jpg", "/p/a-undated.jpg", "/p/b-undated.jpg"])
        let wide = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 31, limit: 100)
        XCTAssertEqual(wide.map(\.path), ["/p/3km.jpg", "/p/eiffel.jpg", "/p/30km.jpg", "/p/a-undated.jpg", "/p/b-undated.jpg"])
        let two = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 31, limit: 2)
        XCTAssertEqual(two.map(\.path), ["/p/3km.jpg", "/p/eiffel.jpg"])
        let just = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 2.9, limit: 100)
        XCTAssertFalse(just.map(\.path).contains("/p/3km.jpg"), "3 km is outside 2.9 km")
    }

    func testCountsPerPlaceInOneCall() async throws {
        let index = try parisIndex()
        let counts = try await index.counts(near: [(id: 1, latitude: eiffel.latitude, longitude: eiffel.longitude),
                                                   (id: 2, latitude: eiffel.latitude + 30 * degreesPerKilometre, longitude: eiffel.longitude),
                                                   (id: 3, latitude: -33.8568, longitude: 151.2153)],
                                            radiusKilometres: 5)
        XCTAssertEqual(counts, [1: 4, 2: 1, 3: 0])
        let none = try await index.counts(near: [], radiusKilometres: 5)
        XCTAssertEqual(none, [:])
    }

    func testCountsLeaveOutPhotosAnAlbumNoLongerShows() async throws {
        let index = try parisIndex()
        let places = [(id: Int64(1), latitude: eiffel.latitude, longitude: eiffel.longitude),
                      (id: Int64(2), latitude: eiffel.latitude + 30 * degreesPerKilometre, longitude: eiffel.longitude)]
        // Hidden at place 1: one near photo, one far one (which 1 never counted), and a file the index no longer has.
        let counts = try await index.counts(near: places, radiusKilometres: 5,
                                            excluding: [1: ["/p/eiffel.jpg", "/p/30km.jpg", "/p/gone.jpg"]])
        XCTAssertEqual(counts, [1: 3, 2: 1])
    }

    func testAnAlbumsYearsShowOnlyPhotosDatedInThem() async throws {
        let index = try parisIndex()
        let in2019 = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 5,
                                            takenIn: 2019...2019, limit: 100)
        XCTAssertEqual(in2019.map(\.path), ["/p/eiffel.jpg"], "neither 2020's nor the undated photos")
        let decade = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 31,
                                            takenIn: 2010...2019, limit: 100)
        XCTAssertEqual(decade.map(\.path), ["/p/eiffel.jpg", "/p/30km.jpg"])
        let before = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 31,
                                            takenIn: 2015...2015, limit: 100)
        XCTAssertEqual(before, [])
    }

    func testCountsFollowEachAlbumsYears() async throws {
        let index = try parisIndex()
        let places = [(id: Int64(1), latitude: eiffel.latitude, longitude: eiffel.longitude),
                      (id: Int64(2), latitude: eiffel.latitude, longitude: eiffel.longitude),
                      (id: Int64(3), latitude: eiffel.latitude, longitude: eiffel.longitude)]
        let counts = try await index.counts(near: places, radiusKilometres: 5, excluding: [2: ["/p/3km.jpg", "/p/eiffel.jpg"]],
                                            takenIn: [1: 2020...2020, 2: 2019...2020])
        XCTAssertEqual(counts, [1: 1, 2: 0, 3: 4], "2020 alone; 2019-2020 less the two hidden; any time")
    }

    func testAPhotoMarkedUnreadableIsCountedNotShown() async throws {
        let index = try parisIndex()
        try await index.markUnreadable("/p/eiffel.jpg")
        let near = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 5, limit: 100)
        XCTAssertFalse(near.map(\.path).contains("/p/eiffel.jpg"))
        let counts = try await index.counts(near: [(id: 1, latitude: eiffel.latitude, longitude: eiffel.longitude)], radiusKilometres: 5)
        XCTAssertEqual(counts, [1: 3])
        let report = try await index.report()
        XCTAssertEqual(report.unreadable, 2)
        XCTAssertEqual(report.photos, 4)
        XCTAssertEqual(try index.stamps()["/p/eiffel.jpg"], FileStamp(size: 1, modified: 1), "not read again until the file changes")
    }

    func testAcrossThe180thMeridian() async throws {
        let index = try OwnPhotoIndex.inMemory()
        try index.write([record("/p/fiji-east.jpg", -16.5, 179.99, year: 2020), record("/p/fiji-west.jpg", -16.5, -179.99, year: 2021)])
        let near = try await index.photos(nearLatitude: -16.5, longitude: -179.995, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(near.map(\.path), ["/p/fiji-west.jpg", "/p/fiji-east.jpg"])
        let counts = try await index.counts(near: [(id: 7, latitude: -16.5, longitude: 179.999)], radiusKilometres: 5)
        XCTAssertEqual(counts, [7: 2])
    }

    func testNearAPoleEveryLongitudeCounts() async throws {
        let index = try OwnPhotoIndex.inMemory()
        try index.write([record("/p/pole.jpg", 89.99, -120, year: 2020)])
        let near = try await index.photos(nearLatitude: 89.99, longitude: 60, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(near.map(\.path), ["/p/pole.jpg"])
    }

    func testReportCountsEachOutcome() async throws {
        let report = try await parisIndex().report()
        XCTAssertEqual(report, IndexReport(photos: 5, noPosition: 1, unreadable: 1, tooLarge: 1))
    }

    func testSummaryLeavesOutZeroes() {
        XCTAssertEqual(IndexReport(photos: 1234, noPosition: 56, unreadable: 3).summary, "1,234 photos · 56 without a position · 3 unreadable")
        XCTAssertEqual(IndexReport(photos: 1).summary, "1 photo")
    }
}

@testable import OwnPhotos
import XCTest

final class PhotoMetadataReaderTests: XCTestCase {
    private var fixtures: PhotoFixtures!

    override func setUpWithError() throws {
        fixtures = try PhotoFixtures()
    }

    override func tearDown() {
        fixtures.remove()
    }

    private func read(_ url: URL) throws -> PhotoMetadataReader.Outcome {
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int64
        return PhotoMetadataReader.read(path: url.path, size: size)
    }

    func testReadsExiftoolsPositionDateAndOrientation() throws {
        let url = try fixtures.exiftoolJPEG("eiffel.jpg", latitude: 48.8584, longitude: 2.2945, taken: "2019:06:01 10:00:00", orientation: 6)
        guard case .photo(let photo) = try read(url) else { return XCTFail("not read as a photo") }
        XCTAssertEqual(photo.path, url.path)
        XCTAssertEqual(photo.latitude, 48.8584, accuracy: 1e-6)
        XCTAssertEqual(photo.longitude, 2.2945, accuracy: 1e-6)
        XCTAssertEqual(photo.orientation, 6)
        XCTAssertEqual(photo.takenAt, ExifDate.utcCalendar.date(from: DateComponents(year: 2019, month: 6, day: 1, hour: 10)))
    }

    func testSouthAndWestAsExiv2WritesThemAreNegative() throws {
        let url = try fixtures.plainJPEG("rio.JPG")
        try PhotoFixtures.run("exiv2", "-M", "set Exif.GPSInfo.GPSLatitude 22/1 57/1 684/100", "-M", "set Exif.GPSInfo.GPSLatitudeRef S",
                              "-M", "set Exif.GPSInfo.GPSLongitude 43/1 12/1 378/10", "-M", "set Exif.GPSInfo.GPSLongitudeRef W",
                              "-M", "set Exif.Photo.DateTimeOriginal 2021:03:04 05:06:07", url.path)
        guard case .photo(let photo) = try read(url) else { return XCTFail("not read as a photo") }
        XCTAssertEqual(photo.latitude, -22.9519, accuracy: 1e-4)
        XCTAssertEqual(photo.longitude, -43.2105, accuracy: 1e-4)
        XCTAssertEqual(photo.orientation, 1, "no orientation tag means upright")
        XCTAssertEqual(photo.takenAt, ExifDate.utcCalendar.date(from: DateComponents(year: 2021, month: 3, day: 4, hour: 5, minute: 6, second: 7)))
    }

    func testPhotoWithoutDateHasNoTime() throws {
        let url = try fixtures.exiftoolJPEG("undated.jpg", latitude: -33.8568, longitude: 151.2153, taken: nil)
        guard case .photo(let photo) = try read(url) else { return XCTFail("not read as a photo") }
        XCTAssertNil(photo.takenAt)
        XCTAssertEqual(photo.latitude, -33.8568, accuracy: 1e-6)
    }

    func testUntaggedJPEGHasNoPosition() throws {
        XCTAssertEqual(try read(fixtures.plainJPEG("plain.jpg")), .noPosition)
    }

    func testRandomBytesAndTruncatedJPEGAreUnreadable() throws {
        let random = fixtures.root.appendingPathComponent("random.jpg")
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: random)
        XCTAssertEqual(try read(random), .unreadable)

        let whole = try fixtures.exiftoolJPEG("whole.jpg", latitude: 1, longitude: 2, taken: nil)
        let truncated = fixtures.root.appendingPathComponent("truncated.jpg")
        try Data(contentsOf: whole).prefix(40).write(to: truncated)
        XCTAssertEqual(try read(truncated), .unreadable)

        let empty = fixtures.root.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        XCTAssertEqual(try read(empty), .unreadable)
    }

    func testFileOverTheCapIsNotOpened() {
        // The path does not exist: had it been opened, the outcome would be unreadable.
        XCTAssertEqual(PhotoMetadataReader.read(path: "/nonexistent/huge.jpg", size: PhotoMetadataReader.maximumFileBytes + 1), .tooLarge)
        XCTAssertEqual(PhotoMetadataReader.read(path: "/nonexistent/huge.jpg", size: 10), .unreadable)
    }

    func testExifDatesAreReadAsWritten() {
        XCTAssertEqual(ExifDate.parse("2019:06:01 10:00:00"), ExifDate.utcCalendar.date(from: DateComponents(year: 2019, month: 6, day: 1, hour: 10)))
        XCTAssertNil(ExifDate.parse("0000:00:00 00:00:00"))
        XCTAssertNil(ExifDate.parse("    :  :     :  :  "))
        XCTAssertNil(ExifDate.parse("2019:13:01 10:00:00"))
    }
}

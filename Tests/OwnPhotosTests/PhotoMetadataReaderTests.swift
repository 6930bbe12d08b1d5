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

    func testAJPEGCutShortInItsPictureIsUnreadableThoughItsTagsAreWhole() throws {
        let whole = try fixtures.exiftoolJPEG("lisbon.jpg", latitude: 38.7, longitude: -9.14, taken: "2019:06:01 10:00:00")
        let bytes = try Data(contentsOf: whole)
        let scanEnd = try XCTUnwrap(Self.endOfScanHeader(in: bytes), "the fixture has image data")
        let cut = fixtures.root.appendingPathComponent("cut.jpg")
        try bytes.prefix(scanEnd + 40).write(to: cut) // the EXIF block whole, 40 bytes of picture
        XCTAssertEqual(try read(cut), .unreadable)
        guard case .photo = try read(whole) else { return XCTFail("the whole file is a photo") }
    }

    func testAJPEGWithDataAfterItsPictureIsAPhoto() throws {
        // A phone's motion photo: the video follows the picture's end marker.
        let url = try fixtures.exiftoolJPEG("motion.jpg", latitude: 38.7, longitude: -9.14, taken: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("....ftypmp42".utf8) + Data((0..<5000).map { UInt8($0 % 200) }))
        try handle.close()
        guard case .photo = try read(url) else { return XCTFail("a picture followed by other data is still whole") }
    }

    func testAPNGCutShortIsUnreadable() throws {
        let png = fixtures.root.appendingPathComponent("map.png")
        try PhotoFixtures.run("convert", "-size", "64x48", "plasma:", png.path)
        try PhotoFixtures.run("exiftool", "-overwrite_original", "-q", "-GPSLatitude=38.7", "-GPSLatitudeRef=N",
                              "-GPSLongitude=9.14", "-GPSLongitudeRef=W", png.path)
        guard case .photo = try read(png) else { return XCTFail("a whole tagged PNG is a photo") }
        let bytes = try Data(contentsOf: png)
        try bytes.prefix(bytes.count - 40).write(to: png)
        XCTAssertEqual(try read(png), .unreadable)
    }

    /// Where a JPEG's image data begins (after its start-of-scan header).
    private static func endOfScanHeader(in bytes: Data) -> Int? {
        var offset = 2
        let data = [UInt8](bytes)
        while offset + 4 <= data.count, data[offset] == 0xFF {
            let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            if data[offset + 1] == 0xDA { return offset + 2 + length }
            offset += 2 + length
        }
        return nil
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

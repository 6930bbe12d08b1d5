import Foundation
import PlaceFiles
import XCTest

/// What Virtual Tourist writes it reads back exactly, in every format.
final class PlaceFileRoundTripTests: XCTestCase {
    static let places = [
        PlaceRecord(name: "Café & <Bar> \"quoted\" 'single' 🏔️ Zürich", latitude: 48.858370123456789, longitude: 2.2945,
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000), photoCount: 12),
        PlaceRecord(name: "北極点 — Ĉu ŝi? ✈︎", latitude: 90, longitude: 180, createdAt: nil, photoCount: 1),
        PlaceRecord(name: "South & <West>", latitude: -90, longitude: -180,
                    createdAt: Date(timeIntervalSince1970: 946_684_800), photoCount: 0),
        PlaceRecord(name: nil, latitude: 0.1 + 0.2, longitude: 1e-7, createdAt: nil, photoCount: nil),
        PlaceRecord(name: "Sydney", latitude: -33.868820000000001, longitude: 151.20929999999998,
                    createdAt: Date(timeIntervalSince1970: 1_234_567_890), photoCount: 250),
    ]

    func testEveryFormatReadsBackWhatItWrote() throws {
        for format in PlaceFileFormat.allCases {
            let data = try PlaceFileWriter.data(for: Self.places, format: format, creator: "Virtual Tourist 1.0")
            let read = try PlaceFileReader.read(data: data, fileName: "places.\(format.fileExtension)")
            XCTAssertEqual(read.format, format)
            XCTAssertEqual(read.passedOver, 0, "\(format)")
            XCTAssertEqual(read.places, Self.places, "\(format)")
        }
    }

    func testFormatIsFoundByContentWhateverTheName() throws {
        for format in PlaceFileFormat.allCases {
            let data = try PlaceFileWriter.data(for: Self.places, format: format, creator: "Virtual Tourist")
            XCTAssertEqual(try PlaceFileReader.read(data: data, fileName: nil).format, format)
            XCTAssertEqual(try PlaceFileReader.read(data: data, fileName: "misnamed.txt").format, format)
        }
    }

    func testReadsFromAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("round-trip-\(UUID()).kmz")
        defer { try? FileManager.default.removeItem(at: url) }
        try PlaceFileWriter.data(for: Self.places, format: .kmz, creator: "Virtual Tourist").write(to: url)
        XCTAssertEqual(try PlaceFileReader.read(contentsOf: url).places, Self.places)
    }

    func testMillisecondsSurviveTheTrip() throws {
        let place = PlaceRecord(name: "Now", latitude: 1, longitude: 2, createdAt: Date(timeIntervalSince1970: 1_700_000_000.25))
        for format in PlaceFileFormat.allCases {
            let data = try PlaceFileWriter.data(for: [place], format: format, creator: "VT")
            let date = try XCTUnwrap(PlaceFileReader.read(data: data, fileName: nil).places.first?.createdAt)
            XCTAssertEqual(date.timeIntervalSince1970, 1_700_000_000.25, accuracy: 0.0005, "\(format)")
        }
    }

    func testGPXIsVersionOnePointOneWithCreatorTimeAndPhotoCount() throws {
        let data = try PlaceFileWriter.data(for: Array(Self.places.prefix(1)), format: .gpx, creator: "Virtual Tourist 1.0",
                                            exportedAt: Date(timeIntervalSince1970: 1_800_000_000))
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("<gpx version=\"1.1\" creator=\"Virtual Tourist 1.0\" xmlns=\"http://www.topografix.com/GPX/1/1\""))
        XCTAssertTrue(text.contains("<metadata><time>2027-01-15T08:00:00Z</time></metadata>"))
        XCTAssertTrue(text.contains("<wpt lat=\"48.85837012345679\" lon=\"2.2945\"><time>2023-11-14T22:13:20Z</time>"))
        XCTAssertTrue(text.contains("<desc>12 photos</desc><extensions><vt:photoCount>12</vt:photoCount></extensions>"))
        XCTAssertTrue(text.contains("Café &amp; &lt;Bar&gt; &quot;quoted&quot; &apos;single&apos;"))
    }

    func testCoordinatesAreWrittenWithoutExponents() throws {
        let data = try PlaceFileWriter.data(for: [PlaceRecord(name: nil, latitude: -1.5e-8, longitude: 1e-7)], format: .kml,
                                            creator: "VT")
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("<coordinates>0.0000001,-0.000000015</coordinates>"))
    }

    func testWriterRefusesAPlaceOffTheMap() {
        XCTAssertThrowsError(try PlaceFileWriter.data(for: [PlaceRecord(name: "Off", latitude: 91, longitude: 0)],
                                                      format: .geoJSON, creator: "VT")) { error in
            XCTAssertEqual(error as? PlaceFileError, .coordinateOutOfRange(placeName: "Off", latitude: 91, longitude: 0))
        }
    }

    func testFormatsAreGuessedFromFileNames() {
        XCTAssertEqual(PlaceFileFormat.guess(fileName: "Saved Places.json"), .geoJSON)
        XCTAssertEqual(PlaceFileFormat.guess(fileName: "x.GeoJSON"), .geoJSON)
        XCTAssertEqual(PlaceFileFormat.guess(fileName: "Track.GPX"), .gpx)
        XCTAssertEqual(PlaceFileFormat.guess(fileName: "doc.kml"), .kml)
        XCTAssertEqual(PlaceFileFormat.guess(fileName: "My places.kmz"), .kmz)
        XCTAssertNil(PlaceFileFormat.guess(fileName: "notes.txt"))
        XCTAssertEqual(PlaceFileFormat.kmz.mediaType, "application/vnd.google-earth.kmz")
        XCTAssertEqual(PlaceFileFormat.geoJSON.fileExtension, "geojson")
        XCTAssertEqual(PlaceFileFormat.gpx.displayName, "GPX waypoints")
    }
}

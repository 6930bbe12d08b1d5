import Foundation
@testable import PlaceFiles
import XCTest

/// Files made to hurt: entity bombs, external entities, too many places, zip bombs, damage, places off the map.
final class HostilePlaceFileTests: XCTestCase {
    private func assertRefused(_ data: Data, fileName: String? = nil, with expected: PlaceFileError,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try PlaceFileReader.read(data: data, fileName: fileName), file: file, line: line) { error in
            XCTAssertEqual(error as? PlaceFileError, expected, file: file, line: line)
        }
    }

    private func temporaryURL(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("placefiles-\(UUID())-\(name)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    static let billionLaughs = """
    <?xml version="1.0"?>
    <!DOCTYPE gpx [
      <!ENTITY lol "lol">
      <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
      <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
      <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
      <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
      <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
      <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
      <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
      <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>&lol9;</name></wpt></gpx>
    """

    private static func externalEntity(_ path: String, root: String = "gpx") -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE \(root) [<!ENTITY secret SYSTEM "file://\(path)">]>
        <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>&secret;</name></wpt></gpx>
        """
    }

    // MARK: XML declarations

    // Speed is bench's business, not a test's: refused with this error means refused before any entity was expanded.
    func testBillionLaughsIsRefusedBeforeParsing() {
        assertRefused(Data(Self.billionLaughs.utf8), fileName: "lol.gpx", with: .declarationsRefused)
        assertRefused(Data(Self.billionLaughs.replacingOccurrences(of: "gpx", with: "kml").utf8), with: .declarationsRefused)
    }

    func testExternalEntityIsRefused() {
        assertRefused(Data(Self.externalEntity("/etc/passwd").utf8), fileName: "passwd.gpx", with: .declarationsRefused)
        assertRefused(Data(Self.externalEntity("/etc/passwd").utf8), fileName: "passwd.txt", with: .declarationsRefused)
    }

    func testKMZWithAnEntityBombIsRefused() throws {
        let kmz = try KMZArchive.archive(kml: Data(Self.billionLaughs.replacingOccurrences(of: "gpx", with: "kml").utf8))
        assertRefused(kmz, fileName: "lol.kmz", with: .declarationsRefused)
    }

    /// The parser as configured, without the byte screen in front of it: the bomb is not expanded, and an
    /// external entity is never opened (a FIFO would block whoever opened it for reading) nor read.
    func testParserAloneExpandsNoEntityAndOpensNoExternalOne() throws {
        XCTAssertThrowsError(try GPXReader.read(Data(Self.billionLaughs.utf8)))
        let passwd = try? GPXReader.read(Data(Self.externalEntity("/etc/passwd").utf8))
        XCTAssertFalse(passwd?.places.contains { $0.name?.contains("root:") == true } ?? false)
        let declared = "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ELEMENT gpx ANY>]><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"/></gpx>"
        XCTAssertThrowsError(try GPXReader.read(Data(declared.utf8))) { error in
            XCTAssertEqual(error as? PlaceFileError, .declarationsRefused)
        }
        let fifo = temporaryURL("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let data = Data(Self.externalEntity(fifo.path).utf8)
        let finished = expectation(description: "parse finished without opening the FIFO")
        nonisolated(unsafe) var outcome: Result<PlaceFileContents, PlaceFileError>?
        Thread.detachNewThread {
            outcome = Result { () throws(PlaceFileError) in try GPXReader.read(data) }
            finished.fulfill()
        }
        wait(for: [finished], timeout: 5)
        XCTAssertNotNil(outcome)
        if case .success(let contents)? = outcome { XCTAssertEqual(contents.places.first?.name, nil) }
        // Nobody has the FIFO open for reading: opening it to write without blocking fails with ENXIO.
        XCTAssertEqual(open(fifo.path, O_WRONLY | O_NONBLOCK), -1)
        XCTAssertEqual(errno, ENXIO)
    }

    /// UTF-16 is screened as the UTF-8 it becomes, so a declaration hides in no encoding, KMZ members included.
    func testDeclarationsInUTF16AreRefusedAsInUTF8() throws {
        func wide(_ text: String) -> String {
            text.replacingOccurrences(of: "<?xml version=\"1.0\"?>", with: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>")
        }
        for bigEndian in [false, true] {
            for mark in [true, false] {
                let bomb = EncodedPlaceFileTests.utf16(wide(Self.billionLaughs), bigEndian: bigEndian, mark: mark)
                assertRefused(bomb, fileName: "lol.gpx", with: .declarationsRefused)
                let passwd = EncodedPlaceFileTests.utf16(wide(Self.externalEntity("/etc/passwd")), bigEndian: bigEndian, mark: mark)
                assertRefused(passwd, fileName: "wide.gpx", with: .declarationsRefused)
            }
        }
        let kml = EncodedPlaceFileTests.utf16(wide(Self.billionLaughs.replacingOccurrences(of: "gpx", with: "kml")), bigEndian: false)
        assertRefused(try KMZArchive.archive(kml: kml), fileName: "lol.kmz", with: .declarationsRefused)
        assertRefused(EncodedPlaceFileTests.utf16(Self.billionLaughs.replacingOccurrences(of: "gpx", with: "svg"), bigEndian: true),
                      fileName: "lol.svg", with: .declarationsRefused)
        assertRefused(Data(Self.billionLaughs.replacingOccurrences(of: "gpx", with: "svg").utf8), fileName: "lol.svg",
                      with: .declarationsRefused)
    }

    /// The cap is on the file's bytes in whatever encoding: 64 MiB of UTF-16 is refused as 64 MiB of UTF-8 is.
    func testOverLargeUTF16FileIsRefusedBeforeTranscoding() {
        var data = Data([0xFF, 0xFE])
        data.append(Data(count: PlaceFileReader.maximumFileBytes - 1))
        assertRefused(data, fileName: "big.kml", with: .tooLarge)
    }

    // MARK: Sizes

    func testAMillionGeoJSONFeaturesAreRefusedEarly() throws {
        var json = Data("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
        let feature = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]}}"
        json.append(Data(Array(repeating: feature, count: 1_000_000).joined(separator: ",").utf8))
        json.append(Data("]}".utf8))
        XCTAssertLessThan(json.count, PlaceFileReader.maximumFileBytes)
        assertRefused(json, fileName: "million.geojson", with: .tooManyPlaces(limit: PlaceFileReader.maximumPlaces))
    }

    func testAMillionWaypointsAreRefusedEarly() throws {
        let url = temporaryURL("million.gpx")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        handle.write(Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n".utf8))
        let chunk = Data(String(repeating: "<wpt lat=\"1.5\" lon=\"2.5\"/>\n", count: 10_000).utf8)
        for _ in 0..<100 { handle.write(chunk) }
        handle.write(Data("</gpx>\n".utf8))
        try handle.close()
        XCTAssertLessThan(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int),
                          PlaceFileReader.maximumFileBytes)
        XCTAssertThrowsError(try PlaceFileReader.read(contentsOf: url)) { error in
            XCTAssertEqual(error as? PlaceFileError, .tooManyPlaces(limit: PlaceFileReader.maximumPlaces))
        }
    }

    func testOneKMLPlacemarkTooManyIsRefused() {
        var kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>"
        kml += String(repeating: "<Placemark><Point><coordinates>2,1</coordinates></Point></Placemark>\n",
                      count: PlaceFileReader.maximumPlaces + 1)
        kml += "</Document></kml>"
        assertRefused(Data(kml.utf8), with: .tooManyPlaces(limit: PlaceFileReader.maximumPlaces))
    }

    /// A million placemarks need more than 64 MiB of KML, so such a file is refused by its size before parsing.
    func testAMillionKMLPlacemarksAreRefusedBeforeParsing() throws {
        let url = temporaryURL("million.kml")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        handle.write(Data("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>".utf8))
        let chunk = Data(String(repeating: "<Placemark><Point><coordinates>2,1</coordinates></Point></Placemark>\n",
                                count: 10_000).utf8)
        for _ in 0..<100 { handle.write(chunk) }
        handle.write(Data("</Document></kml>".utf8))
        try handle.close()
        XCTAssertThrowsError(try PlaceFileReader.read(contentsOf: url)) { error in
            XCTAssertEqual(error as? PlaceFileError, .tooLarge)
        }
    }

    private func zipBomb() throws -> Data {
        var kml = Data("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>".utf8)
        kml.append(Data(repeating: 0x20, count: PlaceFileReader.maximumFileBytes))
        kml.append(Data("</Document></kml>".utf8))
        return try KMZArchive.archive(kml: kml)
    }

    func testZipBombIsRefusedByItsDeclaredSize() throws {
        let bomb = try zipBomb()
        XCTAssertLessThan(bomb.count, 1_000_000)
        assertRefused(bomb, fileName: "bomb.kmz", with: .tooLarge)
    }

    /// An archive that understates its entry's size is stopped while unpacking, at the cap.
    func testZipBombThatLiesAboutItsSizeIsStoppedAtTheCap() throws {
        var bomb = try zipBomb()
        let small: [UInt8] = [0xE8, 0x03, 0x00, 0x00]
        for (signature, sizeOffset) in [([UInt8]([0x50, 0x4B, 0x03, 0x04]), 22), ([0x50, 0x4B, 0x01, 0x02], 24)] {
            let header = try XCTUnwrap(bomb.firstRange(of: signature)).lowerBound
            bomb.replaceSubrange((header + sizeOffset)..<(header + sizeOffset + 4), with: small)
        }
        assertRefused(bomb, fileName: "bomb.kmz", with: .tooLarge)
    }

    func testOverLargeFileIsRefused() throws {
        assertRefused(Data(count: PlaceFileReader.maximumFileBytes + 1), fileName: "big.gpx", with: .tooLarge)
    }

    // MARK: Damage

    func testTruncatedFilesAreRefused() throws {
        let places = PlaceFileRoundTripTests.places
        for format in PlaceFileFormat.allCases {
            let data = try PlaceFileWriter.data(for: places, format: format, creator: "VT")
            XCTAssertThrowsError(try PlaceFileReader.read(data: data.prefix(data.count * 2 / 3), fileName: "cut.\(format.fileExtension)"),
                                 "\(format)") { error in
                guard case .malformed? = error as? PlaceFileError else { return XCTFail("\(format): \(error)") }
            }
        }
    }

    func testBinaryFileNamedGPXIsRefused() {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0x89
        XCTAssertThrowsError(try PlaceFileReader.read(data: Data(bytes), fileName: "photo.gpx")) { error in
            guard case .malformed? = error as? PlaceFileError else { return XCTFail("\(error)") }
        }
        assertRefused(Data("just some notes".utf8), fileName: "notes.txt", with: .unknownFormat)
        assertRefused(Data("just some notes".utf8), fileName: nil, with: .unknownFormat)
    }

    func testPlacesOffTheMapRefuseTheWholeFile() {
        let good = "<wpt lat=\"1\" lon=\"2\"><name>Fine</name></wpt>"
        func gpx(_ point: String) -> Data {
            Data("<gpx version=\"1.1\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/1\">\(good)\(point)</gpx>".utf8)
        }
        assertRefused(gpx("<wpt lat=\"91\" lon=\"0\"><name>North of north</name></wpt>"),
                      with: .coordinateOutOfRange(placeName: "North of north", latitude: 91, longitude: 0))
        assertRefused(Data("<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Placemark><name>Fine</name><Point><coordinates>2,1</coordinates></Point></Placemark><Placemark><Point><coordinates>181,0</coordinates></Point></Placemark></kml>".utf8),
                      with: .coordinateOutOfRange(placeName: nil, latitude: 0, longitude: 181))
        assertRefused(Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,-90.5]},"properties":{"name":"Deep"}}]}"#.utf8),
                      with: .coordinateOutOfRange(placeName: "Deep", latitude: -90.5, longitude: 0))
        XCTAssertThrowsError(try PlaceFileReader.read(data: gpx("<wpt lat=\"NaN\" lon=\"0\"/>"), fileName: nil)) { error in
            guard case .coordinateOutOfRange(nil, let latitude, 0)? = error as? PlaceFileError else { return XCTFail("\(error)") }
            XCTAssertTrue(latitude.isNaN)
        }
    }

    // MARK: Names

    /// A right-to-left override shows "gpx.exe Trap" as "exe.xpg Trap"; a name of 10,257 characters is no name.
    func testNamesAreReadPlainAndCapped() throws {
        let reversing = "Trap \u{202E}exe.xpg\u{202C} here"
        let long = String(repeating: "Lisboa ", count: 1_465) + "!!"
        XCTAssertEqual(long.count, 10_257)
        let gpx = """
        <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="1" lon="2"><name>\(reversing)</name></wpt>
          <wpt lat="3" lon="4"><name>\(long)</name></wpt>
          <wpt lat="5" lon="6"><name>  two\n\tlines\u{9B}  </name></wpt>
          <wpt lat="7" lon="8"><name>\u{2066}\u{2069}</name></wpt>
        </gpx>
        """
        let names = try PlaceFileReader.read(data: Data(gpx.utf8), fileName: "trap.gpx").places.map(\.name)
        XCTAssertEqual(names.count, 4)
        XCTAssertEqual(names[0], "Trap exe.xpg here")
        XCTAssertEqual(names[1]?.count, 200)
        XCTAssertEqual(names[1]?.hasSuffix("…"), true)
        XCTAssertEqual(names[2], "two lines")
        XCTAssertNil(names[3], "a name of nothing but controls is no name")
        let kml = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Placemark><name>\(reversing)</name><Point><coordinates>2,1</coordinates></Point></Placemark></kml>"
        XCTAssertEqual(try PlaceFileReader.read(data: Data(kml.utf8), fileName: nil).places.first?.name, "Trap exe.xpg here")
        let json = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"name":"Trap \u202Eexe.xpg"}}"#
        XCTAssertEqual(try PlaceFileReader.read(data: Data(json.utf8), fileName: nil).places.first?.name, "Trap exe.xpg")
    }

    func testFilesWithoutPlacesSaySo() {
        assertRefused(Data(#"{"type":"FeatureCollection","features":[]}"#.utf8), fileName: "empty.geojson", with: .noPlaces)
        assertRefused(Data("<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"/>".utf8), with: .noPlaces)
        assertRefused(Data(), fileName: "empty.kml", with: .noPlaces)
    }

    func testMissingFileIsUnreadable() {
        XCTAssertThrowsError(try PlaceFileReader.read(contentsOf: URL(fileURLWithPath: "/nonexistent/places.gpx"))) { error in
            guard case .unreadable? = error as? PlaceFileError else { return XCTFail("\(error)") }
        }
    }

    func testMessagesSayWhatHappened() {
        XCTAssertEqual(PlaceFileError.declarationsRefused.userMessage,
                       "This file declares XML entities, which Virtual Tourist does not read. Nothing was imported.")
        XCTAssertTrue(PlaceFileError.coordinateOutOfRange(placeName: "Atlantis", latitude: 91, longitude: 0).userMessage
            .contains("Atlantis"))
        XCTAssertTrue(PlaceFileError.tooManyPlaces(limit: 100_000).userMessage.contains("100,000"))
    }
}

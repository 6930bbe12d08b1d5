import Foundation
@testable import PlaceFiles
import XCTest

/// Places files in the encodings XML allows: UTF-8 with or without a byte-order mark, UTF-16 either way round
/// (Google Earth writes it on some systems), with a mark or, as XML 1.0 Appendix F allows, only "<?xml".
final class EncodedPlaceFileTests: XCTestCase {
    static func utf16(_ text: String, bigEndian: Bool, mark: Bool = true) -> Data {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return Data(bytes)
    }

    static let kml = """
    <?xml version="1.0" encoding="UTF-16"?>
    <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><name>Zürich Hauptbahnhof</name><Point><coordinates>8.5402,47.3782,0</coordinates></Point></Placemark>
      <Placemark><name>東京タワー 🗼</name><Point><coordinates>139.7454,35.6586</coordinates></Point></Placemark>
    </Document></kml>
    """

    static let gpx = """
    <?xml version="1.0" encoding="UTF-16" standalone="yes"?>
    <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="38.7139" lon="-9.1334"><name>Lisboa — Alfama</name></wpt>
    </gpx>
    """

    private let kmlPlaces = [
        PlaceRecord(name: "Zürich Hauptbahnhof", latitude: 47.3782, longitude: 8.5402),
        PlaceRecord(name: "東京タワー 🗼", latitude: 35.6586, longitude: 139.7454),
    ]

    func testUTF16LittleEndianKMLWithAMarkIsRead() throws {
        let contents = try PlaceFileReader.read(data: Self.utf16(Self.kml, bigEndian: false), fileName: "Earth.kml")
        XCTAssertEqual(contents.format, .kml)
        XCTAssertEqual(contents.places, kmlPlaces)
    }

    func testUTF16BigEndianKMLWithAMarkIsRead() throws {
        XCTAssertEqual(try PlaceFileReader.read(data: Self.utf16(Self.kml, bigEndian: true), fileName: "Earth.kml").places, kmlPlaces)
    }

    func testUTF16WithoutAMarkIsReadByItsDeclaration() throws {
        for bigEndian in [false, true] {
            let data = Self.utf16(Self.kml, bigEndian: bigEndian, mark: false)
            XCTAssertEqual(try PlaceFileReader.read(data: data, fileName: nil).places, kmlPlaces, "big-endian: \(bigEndian)")
        }
    }

    func testUTF16GPXIsRead() throws {
        for bigEndian in [false, true] {
            let contents = try PlaceFileReader.read(data: Self.utf16(Self.gpx, bigEndian: bigEndian), fileName: "lisboa.gpx")
            XCTAssertEqual(contents.format, .gpx)
            XCTAssertEqual(contents.places, [PlaceRecord(name: "Lisboa — Alfama", latitude: 38.7139, longitude: -9.1334)])
        }
    }

    func testUTF16KMLInAKMZIsRead() throws {
        let kmz = try KMZArchive.archive(kml: Self.utf16(Self.kml, bigEndian: false))
        let contents = try PlaceFileReader.read(data: kmz, fileName: "Earth.kmz")
        XCTAssertEqual(contents.format, .kmz)
        XCTAssertEqual(contents.places, kmlPlaces)
    }

    func testUTF8WithAMarkIsRead() throws {
        let utf8 = Self.kml.replacingOccurrences(of: "UTF-16", with: "UTF-8")
        XCTAssertEqual(try PlaceFileReader.read(data: Data([0xEF, 0xBB, 0xBF] + Array(utf8.utf8)), fileName: nil).places, kmlPlaces)
        let withoutDeclaration = Data([0xEF, 0xBB, 0xBF] + Array(Self.gpx.split(separator: "\n").dropFirst().joined(separator: "\n").utf8))
        XCTAssertEqual(try PlaceFileReader.read(data: withoutDeclaration, fileName: "lisboa.gpx").places.map(\.name), ["Lisboa — Alfama"])
    }

    /// The declaration is dropped with its line kept, so a damaged UTF-16 file's error names the file's own line.
    func testDamageInUTF16IsReportedAtItsLine() throws {
        let damaged = Self.kml.replacingOccurrences(of: "</Document></kml>", with: "</Folder></kml>")
        XCTAssertThrowsError(try PlaceFileReader.read(data: Self.utf16(damaged, bigEndian: false), fileName: nil)) { error in
            guard case .malformed(let detail)? = error as? PlaceFileError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.hasPrefix("line 5:"), detail)
        }
    }

    func testBrokenUTF16IsDamaged() {
        let expected = PlaceFileError.malformed("the file’s UTF-16 text is damaged")
        let cutMidUnit = Self.utf16(Self.kml, bigEndian: false).dropLast()
        let loneSurrogate = Self.utf16(Self.kml, bigEndian: false) + Data([0x00, 0xD8, 0x3C, 0x00])
        for data in [Data(cutMidUnit), loneSurrogate] {
            XCTAssertThrowsError(try PlaceFileReader.read(data: data, fileName: "broken.kml")) { error in
                XCTAssertEqual(error as? PlaceFileError, expected)
            }
        }
    }

    /// UTF-16 with neither a mark nor a declaration, and UTF-32, are not guessed at: XML requires the mark.
    func testUTF16WithoutMarkOrDeclarationAndUTF32AreNotXML() {
        let bare = Self.utf16(Self.kml.split(separator: "\n").dropFirst().joined(separator: "\n"), bigEndian: false, mark: false)
        var utf32 = Data([0xFF, 0xFE, 0x00, 0x00])
        for scalar in Self.kml.unicodeScalars { withUnsafeBytes(of: scalar.value.littleEndian) { utf32.append(contentsOf: $0) } }
        for data in [bare, utf32] {
            XCTAssertThrowsError(try PlaceFileReader.read(data: data, fileName: "wide.kml")) { error in
                XCTAssertEqual(error as? PlaceFileError, .malformed("the file is not XML in UTF-8 or UTF-16"))
            }
        }
    }

    /// UTF-16's text in UTF-8 is at most half as long again: "東" takes two bytes in one, three in the other.
    func testTranscodingGrowsTheTextByAtMostHalf() throws {
        let wide = Self.utf16("<?xml version=\"1.0\"?>" + String(repeating: "東", count: 1_000), bigEndian: false)
        let text = try TextEncoding.utf8(wide)
        XCTAssertEqual(text.count, 3_000)
        XCTAssertLessThanOrEqual(text.count, (wide.count - 2) * 3 / 2)
    }
}

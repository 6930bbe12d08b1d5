import PlaceFiles
@testable import TouristUI
import XCTest

/// Export Places… writes the format the user chose, and the file's name says it.
final class ExportTargetTests: XCTestCase {
    private func target(_ name: String, chosen: PlaceFileFormat?) -> (String, PlaceFileFormat) {
        let (file, format) = PlaceExchange.exportTarget(URL(fileURLWithPath: "/home/ana/\(name)"), chosen: chosen, offered: .gpx)
        return (file.lastPathComponent, format)
    }

    func testTheNameFollowsATypeChosenInTheList() {
        XCTAssertTrue(target("My Places.gpx", chosen: .kml) == ("My Places.kml", .kml))
        XCTAssertTrue(target("My Places.gpx", chosen: .geoJSON) == ("My Places.geojson", .geoJSON))
        XCTAssertTrue(target("My Places.gpx", chosen: .kmz) == ("My Places.kmz", .kmz))
    }

    func testAnExtensionTypedWithTheOfferedTypeShownDecides() {
        XCTAssertTrue(target("trip.kml", chosen: .gpx) == ("trip.kml", .kml))
        XCTAssertTrue(target("saved.json", chosen: .gpx) == ("saved.json", .geoJSON))
        XCTAssertTrue(target("My Places.gpx", chosen: .gpx) == ("My Places.gpx", .gpx))
    }

    func testANameWithoutAKnownExtensionGetsTheTypeShown() {
        XCTAssertTrue(target("trip", chosen: .kml) == ("trip.kml", .kml))
        XCTAssertTrue(target("trip", chosen: nil) == ("trip.gpx", .gpx))
        XCTAssertTrue(target("v1.2 notes", chosen: .gpx) == ("v1.2 notes.gpx", .gpx))
    }
}

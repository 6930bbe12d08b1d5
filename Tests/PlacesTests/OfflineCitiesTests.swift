import Places
import XCTest

/// libgeonames for real: Debian's database of cities of 15,000 people or more.
final class OfflineCitiesTests: XCTestCase {
    let cities = OfflineCities()

    func testMountainViewIsFoundInCalifornia() throws {
        let place = try XCTUnwrap(cities.search("Mountain View").first)
        XCTAssertEqual(place.name, "Mountain View, California, United States")
        XCTAssertEqual(place.latitude, 37.386, accuracy: 0.01)
        XCTAssertEqual(place.longitude, -122.084, accuracy: 0.01)
        XCTAssertEqual(place.source, .offlineCities)
    }

    func testParisAloneIsTheOneInFrance() throws {
        let place = try XCTUnwrap(cities.search("Paris").first)
        XCTAssertTrue(place.name.hasPrefix("Paris, Île-de-France"), place.name)
        XCTAssertTrue(place.name.hasSuffix(", France"), place.name)
        XCTAssertEqual(place.latitude, 48.85, accuracy: 0.05)
        XCTAssertEqual(place.longitude, 2.35, accuracy: 0.05)
    }

    func testStateCountryOrCodeAfterACommaPicksParisTexas() throws {
        for query in ["Paris, Texas", "Paris, TX", "Paris, US", "paris, united states", "Paris, USA", "Paris, Texas, US"] {
            let place = try XCTUnwrap(cities.search(query).first, query)
            XCTAssertEqual(place.name, "Paris, Texas, United States", query)
            XCTAssertEqual(place.latitude, 33.66, accuracy: 0.05, query)
            XCTAssertEqual(place.longitude, -95.55, accuracy: 0.05, query)
        }
    }

    func testHuntsvilleAlabamaIsFoundThoughLibgeonamesAloneFindsNothing() throws {
        let place = try XCTUnwrap(cities.search("Huntsville, Alabama").first)
        XCTAssertEqual(place.name, "Huntsville, Alabama, United States")
        XCTAssertEqual(place.latitude, 34.73, accuracy: 0.05)
        XCTAssertEqual(place.longitude, -86.59, accuracy: 0.05)
        XCTAssertFalse(cities.search("Huntsville, Alabama").contains { $0.name.contains("Texas") })
    }

    func testCaseAccentsAndExtraSpacesDoNotMatter() throws {
        XCTAssertEqual(cities.search("  mountain VIEW ").first?.name, "Mountain View, California, United States")
        XCTAssertEqual(cities.search("zürich").first?.name, "Zurich, Canton of Zurich, Switzerland")
    }

    func testAStateIsFoundByTheWordsPeopleUse() throws {
        XCTAssertEqual(cities.search("Paris, Île-de-France").first?.name.hasSuffix("France"), true)
        XCTAssertEqual(cities.search("London, Ontario").first?.name, "London, Ontario, Canada")
        XCTAssertEqual(cities.search("London, UK").first?.name, "London, England, United Kingdom")
        XCTAssertEqual(cities.search("Huntsville, Ontario").first?.name, "Huntsville, Ontario, Canada")
    }

    func testAWrongQualifierFindsNothing() {
        XCTAssertEqual(cities.search("Mountain View, France"), [])
        XCTAssertEqual(cities.search("Paris, Nowhereland"), [])
    }

    func testOnlyWholeNamesMatchNotPrefixes() {
        XCTAssertFalse(cities.search("Mountain").contains { $0.name.hasPrefix("Mountain View") })
    }

    func testNonsenseAndAddressesFindNothing() {
        XCTAssertEqual(cities.search("Xyzzyplughtown"), [])
        XCTAssertEqual(cities.search("1600 Amphitheatre Parkway, Mountain View"), [])
        XCTAssertEqual(cities.search(""), [])
        XCTAssertEqual(cities.search(" , "), [])
    }

    func testLimitCapsTheResults() {
        XCTAssertEqual(cities.search("Paris", limit: 1).count, 1)
        XCTAssertGreaterThan(cities.search("Paris", limit: 5).count, 1)
        XCTAssertEqual(cities.search("Paris", limit: 0), [])
    }

    func testCompletionsSuggestCitiesFromTheFirstLetters() throws {
        let names = cities.completions(for: "Mountain Vi").map(\.name)
        XCTAssertTrue(names.contains("Mountain View, California, United States"), "\(names)")
        let texas = cities.completions(for: "Paris, Tex").map(\.name)
        XCTAssertEqual(texas.first, "Paris, Texas, United States")
    }

    func testSearchesFromManyThreadsAtOnceAgree() async {
        let cities = self.cities
        let names = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 { group.addTask { cities.search("Huntsville, AL").first?.name } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        XCTAssertEqual(names, Array(repeating: "Huntsville, Alabama, United States", count: 8))
    }
}

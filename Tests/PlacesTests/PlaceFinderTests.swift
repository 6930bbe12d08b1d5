import Foundation
import Places
import XCTest

/// Offline cities first, Nominatim for the rest, and what happens when either has nothing.
final class PlaceFinderTests: NominatimServerTestCase {
    let cities = OfflineCities()

    func makeFinder(endpoint: URL? = nil) -> PlaceFinder {
        let online = NominatimGeocoder(endpoint: endpoint ?? server.endpoint, userAgent: testUserAgent,
                                       session: quickSession(),
                                       limiter: RequestRateLimiter(minimumInterval: .milliseconds(10)))
        return PlaceFinder(offline: cities, online: online)
    }

    func testACityIsFoundOfflineWithoutARequest() async throws {
        let place = try await makeFinder().find("Paris, TX")
        XCTAssertEqual(place.name, "Paris, Texas, United States")
        XCTAssertEqual(place.source, .offlineCities)
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.count, 0)
    }

    func testAnAddressGoesOnline() async throws {
        let place = try await makeFinder().find("1600 Amphitheatre Parkway, Mountain View")
        XCTAssertEqual(place.source, .nominatim)
        XCTAssertEqual(place.latitude, 37.4220, accuracy: 1e-6)
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.map(\.q), ["1600 Amphitheatre Parkway, Mountain View"])
    }

    func testALandmarkThatIsNoCityGoesOnline() async throws {
        let place = try await makeFinder().find("Eiffel Tower")
        XCTAssertEqual(place.source, .nominatim)
        XCTAssertEqual(place.longitude, 2.2945, accuracy: 1e-6)
    }

    func testWhenNominatimIsUnreachableTheAddressesCityIsUsed() async throws {
        server.stop()
        let place = try await makeFinder().find("1600 Amphitheatre Parkway, Mountain View, CA")
        XCTAssertEqual(place.name, "Mountain View, California, United States")
        XCTAssertEqual(place.source, .offlineCities)
    }

    func testWhenNominatimFailsTheAddressesCityIsUsed() async throws {
        try await server.send("__fail?status=503")
        let place = try await makeFinder().find("Some Street 5, Huntsville, Alabama")
        XCTAssertEqual(place.name, "Huntsville, Alabama, United States")
    }

    func testUnreachableWithNoCityInTheTextSaysSo() async throws {
        let endpoint = URL(string: "http://127.0.0.1:\(try refusedLocalPort())/")!
        await assertThrows(try await makeFinder(endpoint: endpoint).find("Eiffel Tower")) { error in
            XCTAssertEqual(error, .geocoderUnreachable(query: "Eiffel Tower"))
            XCTAssertTrue(error.description.contains("“Eiffel Tower”"))
            XCTAssertTrue(error.description.contains("only cities"), error.description)
        }
    }

    func testNothingAnywhereIsNotFoundWithTheQuery() async throws {
        await assertThrows(try await makeFinder().find("  Xyzzyplughtown ")) { error in
            XCTAssertEqual(error, .notFound(query: "Xyzzyplughtown"))
            XCTAssertEqual(error.description,
                           "No place called “Xyzzyplughtown” was found. Check the spelling, or add the city or country.")
        }
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.count, 1)
    }

    func testWithoutAnOnlineGeocoderCitiesStillWork() async throws {
        let finder = PlaceFinder(offline: cities, online: nil)
        let place = try await finder.find("Mountain View")
        XCTAssertEqual(place.latitude, 37.386, accuracy: 0.01)
        await assertThrows(try await finder.find("Eiffel Tower")) { error in
            XCTAssertEqual(error, .geocoderUnreachable(query: "Eiffel Tower"))
        }
    }

    func testEveryMessageIsASentenceNamingTheQuery() {
        let errors: [PlaceSearchError] = [
            .notFound(query: "Atlantis"), .geocoderUnreachable(query: "Atlantis"),
            .geocoderFailed(query: "Atlantis", detail: "the server had a problem: HTTP 500"),
        ]
        for error in errors {
            XCTAssertTrue(error.description.contains("“Atlantis”"), error.description)
            XCTAssertTrue(error.description.hasSuffix("."), error.description)
            XCTAssertEqual(error.localizedDescription, error.description)
        }
    }
}

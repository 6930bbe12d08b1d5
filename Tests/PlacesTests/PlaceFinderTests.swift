import FlickrTestSupport
import Foundation
@testable import Places
import XCTest

/// Offline cities first, Nominatim for the rest, and what happens when either has nothing.
final class PlaceFinderTests: NominatimServerTestCase {
    let cities = OfflineCities()

    func makeFinder(endpoint: URL? = nil) -> PlaceFinder {
        let online = NominatimGeocoder(endpoint: endpoint ?? server.endpoint, userAgent: testUserAgent,
                                       timeout: quickTimeout,
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
        let endpoint = URL(string: "http://127.0.0.1:\(try closedLocalPort())/")!
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

    // MARK: The header bar's search

    func testSuggestionsAreCitiesStartingLikeTheTextAndAskNominatimNothing() async throws {
        let suggestions = await makeFinder().suggestions(for: "Pari")
        XCTAssertTrue(suggestions.contains { $0.name.hasPrefix("Paris, ") && $0.name.hasSuffix(", France") },
                      "\(suggestions.map(\.name))")
        XCTAssertTrue(suggestions.allSatisfy { $0.name.hasPrefix("Pari") && $0.source == .offlineCities })
        let none = await makeFinder().suggestions(for: "  ")
        XCTAssertEqual(none, [])
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.count, 0, "never a request per keystroke")
    }

    func testASearchPutsNominatimsPlacesFirst() async throws {
        let results = try await makeFinder().search("Eiffel Tower")
        XCTAssertEqual(results.online, .answered)
        XCTAssertEqual(results.places.first?.source, .nominatim)
        XCTAssertTrue(results.places.first?.name.hasPrefix("Tour Eiffel") == true)
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.map(\.q), ["Eiffel Tower"])
    }

    func testASearchNominatimKnowsNothingOfStillListsTheCities() async throws {
        let results = try await makeFinder().search("Paris")
        XCTAssertEqual(results.online, .answered)
        XCTAssertEqual(results.places.first?.name.hasSuffix(", France"), true, "\(results.places.map(\.name))")
        XCTAssertTrue(results.places.contains { $0.name == "Paris, Texas, United States" })
        XCTAssertEqual(Set(results.places.map(\.name)).count, results.places.count, "no city twice")
    }

    func testWithNominatimDownASearchSaysSoAndGivesCities() async throws {
        server.stop()
        let cities = try await makeFinder().search("Reykjavik")
        XCTAssertEqual(cities.online, .unavailable)
        XCTAssertTrue(cities.places.first?.name.hasPrefix("Reykjav") == true, "\(cities.places.map(\.name))")
        let landmark = try await makeFinder().search("Eiffel Tower")
        XCTAssertEqual(landmark, PlaceSearchResults(places: [], online: .unavailable))
    }

    func testWithNominatimFailingASearchSaysSo() async throws {
        try await server.send("__fail?mode=badjson")
        let results = try await makeFinder().search("Mountain View")
        XCTAssertEqual(results.online, .unavailable)
        XCTAssertEqual(results.places.first?.source, .offlineCities)
    }

    func testWithoutAnOnlineGeocoderASearchIsCitiesOnly() async throws {
        let results = try await PlaceFinder(offline: cities, online: nil).search("Mountain View")
        XCTAssertEqual(results.online, .notAsked)
        XCTAssertEqual(results.places.first?.latitude ?? 0, 37.386, accuracy: 0.01)
    }

    func testACityFoundByBothIsListedOnceAsNominatimNamedIt() {
        let city = Place(name: "Paris, Île-de-France Region, France", latitude: 48.8534, longitude: 2.3488,
                         source: .offlineCities)
        let online = Place(name: "Paris, Île-de-France, France métropolitaine, France", latitude: 48.8589,
                           longitude: 2.3200, source: .nominatim)
        let tower = Place(name: "Tour Eiffel, 5, Avenue Anatole France, Paris", latitude: 48.8584, longitude: 2.2945,
                          source: .nominatim)
        let texas = Place(name: "Paris, Texas, United States", latitude: 33.66, longitude: -95.55, source: .offlineCities)
        XCTAssertTrue(online.isSamePlace(as: city))
        XCTAssertFalse(tower.isSamePlace(as: city), "another name")
        XCTAssertFalse(texas.isSamePlace(as: city), "another place")
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

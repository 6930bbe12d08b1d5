import FlickrTestSupport
import Foundation
@testable import Places
import XCTest

/// The Nominatim client against `nominatim_server.py` over real HTTP.
final class NominatimGeocoderTests: NominatimServerTestCase {
    /// A geocoder with its own short limiter, so tests that don't check the spacing stay fast.
    func makeGeocoder(endpoint: URL? = nil, timeout: TimeInterval = quickTimeout,
                      limiter: RequestRateLimiter = RequestRateLimiter(minimumInterval: .milliseconds(10))) -> NominatimGeocoder {
        NominatimGeocoder(endpoint: endpoint ?? server.endpoint, userAgent: testUserAgent, timeout: timeout, limiter: limiter)
    }

    func testAnAddressIsFoundWithCoordinatesParsedFromStrings() async throws {
        let places = try await makeGeocoder().search("1600 Amphitheatre Parkway, Mountain View")
        let place = try XCTUnwrap(places.first)
        XCTAssertEqual(place.latitude, 37.4220, accuracy: 1e-6)
        XCTAssertEqual(place.longitude, -122.0841, accuracy: 1e-6)
        XCTAssertTrue(place.name.hasPrefix("Google Building 41, 1600, Amphitheatre Parkway, Mountain View"), place.name)
        XCTAssertEqual(place.source, .nominatim)
    }

    func testTheEndpointComesFromTheEnvironmentAndABadOneFallsBackSayingWhy() {
        let variable = "SOME_APP_GEOCODER_URL"
        let unset = NominatimGeocoder.endpoint(from: [:], variable: variable)
        XCTAssertEqual(unset.endpoint, NominatimGeocoder.defaultEndpoint)
        XCTAssertNil(unset.problem)
        XCTAssertNil(NominatimGeocoder.endpoint(from: [variable: ""], variable: variable).problem)

        let local = NominatimGeocoder.endpoint(from: [variable: "http://127.0.0.1:8088/nominatim/"], variable: variable)
        XCTAssertEqual(local.endpoint.absoluteString, "http://127.0.0.1:8088/nominatim/")
        XCTAssertNil(local.problem)

        for bad in ["nominatim", "ftp://example.org/", "http://"] {
            let result = NominatimGeocoder.endpoint(from: [variable: bad], variable: variable)
            XCTAssertEqual(result.endpoint, NominatimGeocoder.defaultEndpoint, bad)
            let problem = try? XCTUnwrap(result.problem, bad)
            XCTAssertTrue(problem?.hasPrefix("\(variable)=\(bad) is not an http(s) address") == true, problem ?? bad)
        }
    }

    func testBothRequestsKeepAnEndpointThatAlreadyNamesTheirPath() {
        let search = NominatimGeocoder(endpoint: URL(string: "http://127.0.0.1:1/search")!, userAgent: "Test/1")
        XCTAssertEqual(search.request(for: "Paris", limit: 3).url.path, "/search")
        let reverse = NominatimGeocoder(endpoint: URL(string: "http://127.0.0.1:1/base/")!, userAgent: "Test/1")
        let request = reverse.reverseRequest(latitude: 48.8867, longitude: 2.3431)
        XCTAssertEqual(request.url.path, "/base/reverse")
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "Test/1")
        XCTAssertTrue(request.url.query?.contains("lat=48.886700") == true, request.url.absoluteString)
    }

    func testTheRequestCarriesTheUserAgentFormatAndLimit() async throws {
        _ = try await makeGeocoder().search("Eiffel Tower", limit: 3)
        let recorded = try await server.requests()
        let request = try XCTUnwrap(recorded.first)
        XCTAssertEqual(request.path, "/search")
        XCTAssertEqual(request.user_agent, testUserAgent)
        XCTAssertEqual(request.q, "Eiffel Tower")
        XCTAssertEqual(request.query["format"], "jsonv2")
        XCTAssertEqual(request.query["limit"], "3")
    }

    func testPlusAmpersandAndAccentsReachTheServerUnchanged() async throws {
        let text = "C++ & Co, Straße 1+2 = Zürich?"
        _ = try await makeGeocoder().search(text)
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.first?.q, text)
    }

    func testAnUnknownPlaceIsAnEmptyListNotAnError() async throws {
        let places = try await makeGeocoder().search("Nowhere in particular 12345")
        XCTAssertEqual(places, [])
    }

    func testAtMostOneRequestPerSecondAcrossGeocodersSharingALimiter() async throws {
        let limiter = RequestRateLimiter()  // the real one-second spacing
        let first = makeGeocoder(limiter: limiter)
        let second = makeGeocoder(limiter: limiter)
        _ = try await first.search("Eiffel Tower")
        _ = try await second.search("Brandenburger Tor")
        _ = try await first.search("Nowhere 3")
        // Times are when the server received each request, so they carry the loopback's jitter
        // (tens of milliseconds under a sanitizer on a busy machine); the limiter's own spacing is
        // checked exactly in RequestRateLimiterTests. Without a shared limiter these would be ~0 s apart.
        let times = try await server.requests().map(\.time)
        XCTAssertEqual(times.count, 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.85, "requests \(later - earlier) s apart")
        }
    }

    func testConcurrentSearchesAreSpacedToo() async throws {
        let geocoder = makeGeocoder(limiter: RequestRateLimiter(minimumInterval: .milliseconds(500)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for query in ["a 1", "b 2", "c 3"] {
                group.addTask { _ = try await geocoder.search(query) }
            }
            try await group.waitForAll()
        }
        let times = try await server.requests().map(\.time).sorted()
        XCTAssertEqual(times.count, 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.4, "arrival times carry loopback jitter; unlimited they would be ~0 s apart")
        }
    }

    func testTheSameQueryTwiceSendsOneRequest() async throws {
        let geocoder = makeGeocoder()
        let first = try await geocoder.search("Eiffel Tower")
        let second = try await geocoder.search("  eiffel   TOWER ")
        XCTAssertEqual(first, second)
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.count, 1)
    }

    func testNotFoundIsCachedToo() async throws {
        let geocoder = makeGeocoder()
        _ = try await geocoder.search("Nowhere 42")
        _ = try await geocoder.search("nowhere 42")
        let recorded = try await server.requests()
        XCTAssertEqual(recorded.count, 1)
    }

    func testServerErrorIsGeocoderFailedAndNotCached() async throws {
        let geocoder = makeGeocoder()
        try await server.send("__fail?status=500&times=1")
        await assertThrows(try await geocoder.search("Eiffel Tower")) { error in
            guard case .geocoderFailed(let query, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(query, "Eiffel Tower")
            XCTAssertTrue(detail.contains("500"), detail)
        }
        let retried = try await geocoder.search("Eiffel Tower")
        XCTAssertEqual(retried.count, 1, "a failure must not be cached")
    }

    func testBadJSONIsGeocoderFailed() async throws {
        try await server.send("__fail?mode=badjson")
        await assertThrows(try await makeGeocoder().search("Eiffel Tower")) { error in
            guard case .geocoderFailed = error else { return XCTFail("\(error)") }
        }
    }

    func testAnHTMLPageIsGeocoderFailed() async throws {
        try await server.send("__fail?mode=html")
        await assertThrows(try await makeGeocoder().search("Eiffel Tower")) { error in
            guard case .geocoderFailed = error else { return XCTFail("\(error)") }
        }
    }

    func testAStoppedServerIsUnreachable() async throws {
        let geocoder = makeGeocoder()
        server.stop()
        await assertThrows(try await geocoder.search("Eiffel Tower")) { error in
            XCTAssertEqual(error, .geocoderUnreachable(query: "Eiffel Tower"))
        }
    }

    func testARefusedPortIsUnreachable() async throws {
        let endpoint = URL(string: "http://127.0.0.1:\(try closedLocalPort())/")!
        await assertThrows(try await makeGeocoder(endpoint: endpoint).search("Eiffel Tower")) { error in
            XCTAssertEqual(error, .geocoderUnreachable(query: "Eiffel Tower"))
        }
    }

    func testAServerThatDoesNotAnswerInTimeIsUnreachable() async throws {
        try await server.send("__fail?mode=slow&seconds=4")
        let started = Date()
        await assertThrows(try await makeGeocoder(timeout: 1).search("Eiffel Tower")) { error in
            XCTAssertEqual(error, .geocoderUnreachable(query: "Eiffel Tower"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5)
    }

    func testCancellingASearchEndsItWithoutWaitingForTheServer() async throws {
        try await server.send("__fail?mode=slow&seconds=4")
        let geocoder = makeGeocoder(timeout: 8)
        let started = Date()
        let search = Task { try await geocoder.search("Eiffel Tower") }
        while try await server.requests().isEmpty, Date().timeIntervalSince(started) < 1 {  // until the server holds it
            try await Task.sleep(for: .milliseconds(10))
        }
        search.cancel()
        do {
            let places = try await search.value
            XCTFail("expected cancellation, got \(places)")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testThePlacesFileExtendsTheServersTable() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let places = [["query": "Udacity HQ", "lat": 37.3996, "lon": -122.1083, "display_name": "Udacity, Mountain View"]]
        try JSONSerialization.data(withJSONObject: places).write(to: file)
        let extended = try NominatimTestServer(placesFile: file)
        defer { extended.stop() }
        let found = try await makeGeocoder(endpoint: extended.endpoint).search("udacity hq")
        XCTAssertEqual(found, [Place(name: "Udacity, Mountain View", latitude: 37.3996, longitude: -122.1083, source: .nominatim)])
    }

    func testAnEndpointWithAPathKeepsIt() throws {
        let geocoder = NominatimGeocoder(endpoint: URL(string: "https://maps.example.org/nominatim/")!, userAgent: testUserAgent)
        let url = try XCTUnwrap(geocoder.request(for: "Paris", limit: 1).url)
        XCTAssertEqual(url.host, "maps.example.org")
        XCTAssertEqual(url.path, "/nominatim/search")
    }
}

/// Awaits `expression`, expecting a `PlaceSearchError` that `check` then inspects.
func assertThrows<T>(_ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
                     _ check: (PlaceSearchError) -> Void) async {
    do {
        let value = try await expression()
        XCTFail("expected an error, got \(value)", file: file, line: line)
    } catch let error as PlaceSearchError {
        check(error)
    } catch {
        XCTFail("expected a PlaceSearchError, got \(error)", file: file, line: line)
    }
}

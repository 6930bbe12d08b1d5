import FlickrTestSupport
import Foundation
@testable import Places
import XCTest

/// Naming a point: Nominatim's `/reverse` against `nominatim_server.py` over real HTTP, and the offline
/// nearest city from libgeonames.
final class ReverseGeocodingTests: NominatimServerTestCase {
    private func makeGeocoder() -> NominatimGeocoder {
        NominatimGeocoder(endpoint: server.endpoint, userAgent: testUserAgent, timeout: quickTimeout,
                          limiter: RequestRateLimiter(minimumInterval: .milliseconds(10)))
    }

    func testAPointIsNamedAsATravellerSaysItNotByItsStreetAddress() async throws {
        let place = try await XCTUnwrapAsync(try await makeGeocoder().reverse(latitude: 48.8866, longitude: 2.3430))
        XCTAssertEqual(place.name, "Montmartre, Paris, France", "quarter, town, country; not the numbered district")
        XCTAssertEqual(place.latitude, 48.8866, "the pin keeps its own coordinates")
        XCTAssertEqual(place.source, .nominatim)
    }

    func testTheRequestAsksForTheNeighbourhoodWithAddressDetailsAndIdentifiesTheApp() async throws {
        _ = try await makeGeocoder().reverse(latitude: 48.8866, longitude: 2.3430)
        let recorded = try await server.requests()
        let request = try XCTUnwrap(recorded.first)
        XCTAssertEqual(request.path, "/reverse")
        XCTAssertEqual(request.user_agent, testUserAgent)
        XCTAssertEqual(request.query["format"], "jsonv2")
        XCTAssertEqual(request.query["zoom"], "14")
        XCTAssertEqual(request.query["addressdetails"], "1")
        XCTAssertEqual(Double(request.query["lat"] ?? ""), 48.8866)
        XCTAssertEqual(Double(request.query["lon"] ?? ""), 2.3430)
    }

    func testWithoutAnAddressTheDisplayNameIsUsed() async throws {
        let place = try await XCTUnwrapAsync(try await makeGeocoder().reverse(latitude: 52.5163, longitude: 13.3777))
        XCTAssertEqual(place.name, "Brandenburger Tor, Pariser Platz, Mitte, Berlin, 10117, Deutschland")
    }

    func testTheOpenSeaIsNilNotAnError() async throws {
        let place = try await makeGeocoder().reverse(latitude: -40, longitude: -140)
        XCTAssertNil(place)
    }

    func testServerErrorsAndJunkAreGeocoderFailed() async throws {
        let geocoder = makeGeocoder()
        for failure in ["__fail?status=503&times=1", "__fail?mode=badjson&times=1", "__fail?mode=html&times=1"] {
            try await server.send(failure)
            await assertThrows(try await geocoder.reverse(latitude: 48.8866, longitude: 2.3430)) { error in
                guard case .geocoderFailed = error else { return XCTFail("\(failure): \(error)") }
            }
        }
        let place = try await geocoder.reverse(latitude: 48.8866, longitude: 2.3430)
        XCTAssertEqual(place?.name, "Montmartre, Paris, France", "answers again once the server recovers")
    }

    func testARefusedPortIsUnreachable() async throws {
        let geocoder = NominatimGeocoder(endpoint: URL(string: "http://127.0.0.1:\(try closedLocalPort())/")!,
                                         userAgent: testUserAgent, timeout: quickTimeout,
                                         limiter: RequestRateLimiter(minimumInterval: .milliseconds(10)))
        await assertThrows(try await geocoder.reverse(latitude: 1, longitude: 2)) { error in
            guard case .geocoderUnreachable = error else { return XCTFail("\(error)") }
        }
    }

    // MARK: Offline: the nearest of libgeonames' cities

    func testThePointsOfACityAreNamedAfterIt() throws {
        let cities = NearestCities.shared
        XCTAssertGreaterThan(cities.count, 20_000, "libgeonames' cities of 15,000 people or more")
        // Montmartre is nearer the centre of Saint-Ouen than of Paris, but it is in Paris.
        let montmartre = try XCTUnwrap(cities.name(latitude: 48.8867, longitude: 2.3431))
        XCTAssertTrue(montmartre.hasPrefix("Paris, ") && montmartre.hasSuffix(", France"), montmartre)
        XCTAssertEqual(cities.name(latitude: 37.3894, longitude: -122.0819), "Mountain View, California, United States")
        XCTAssertEqual(cities.name(latitude: -33.8688, longitude: 151.2093)?.hasPrefix("Sydney, "), true)
    }

    func testAcrossTheDateLineAndNearThePoleTheNearestCityWins() throws {
        let cities = NearestCities.shared
        // Just east of the date line: the nearest city is Fijian, even though its longitude is +178.
        let fiji = try XCTUnwrap(cities.nearest(latitude: -18.1, longitude: -179.9))
        XCTAssertTrue(fiji.city.name.hasSuffix("Fiji"), fiji.city.name)
        XCTAssertLessThan(fiji.kilometres, 400)
        // Far north: some city, named by its distance.
        let north = try XCTUnwrap(cities.name(latitude: 89.9, longitude: 0))
        XCTAssertTrue(north.contains(" km from "), north)
    }

    func testTheTreeFindsWhatAScanOfEveryCityFinds() {
        var generator = SystemRandomNumberGenerator()
        let cities = (0..<3_000).map { _ in
            (Double.random(in: -90...90, using: &generator), Double.random(in: -180...180, using: &generator))
        }
        let tree = SphereTree(points: cities.map { SpherePoint(latitude: $0.0, longitude: $0.1) })
        for _ in 0..<500 {
            let target = SpherePoint(latitude: .random(in: -90...90), longitude: .random(in: -180...180))
            let scanned = cities.indices.min { a, b in
                SpherePoint(latitude: cities[a].0, longitude: cities[a].1).squaredDistance(to: target)
                    < SpherePoint(latitude: cities[b].0, longitude: cities[b].1).squaredDistance(to: target)
            }
            XCTAssertEqual(tree.nearest(to: target).first?.index, scanned)
        }
    }

    func testTheKNearestComeNearestFirst() {
        let points = (0..<2_000).map { _ in SpherePoint(latitude: .random(in: -90...90), longitude: .random(in: -180...180)) }
        let tree = SphereTree(points: points)
        for _ in 0..<100 {
            let target = SpherePoint(latitude: .random(in: -90...90), longitude: .random(in: -180...180))
            let scanned = points.indices.sorted { points[$0].squaredDistance(to: target) < points[$1].squaredDistance(to: target) }
            XCTAssertEqual(tree.nearest(to: target, count: 12).map(\.index), Array(scanned.prefix(12)))
        }
    }

    func testDistancesAreGreatCircleKilometres() throws {
        let paris = SpherePoint(latitude: 48.8566, longitude: 2.3522)
        let london = SpherePoint(latitude: 51.5074, longitude: -0.1278)
        XCTAssertEqual(SpherePoint.kilometres(chord: paris.squaredDistance(to: london).squareRoot()), 343.5, accuracy: 1.5)
    }
}

/// `XCTUnwrap` for an async expression.
func XCTUnwrapAsync<T>(_ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath,
                       line: UInt = #line) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

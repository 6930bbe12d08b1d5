import Foundation
import MapView
@testable import OnTheMapUI
import StudentLocations
import XCTest

final class SharedLinkTests: XCTestCase {
    func testWebLinksAreKeptAndABareHostGetsHTTPS() {
        XCTAssertEqual(SharedLink.validated("https://github.com/ada"), "https://github.com/ada")
        XCTAssertEqual(SharedLink.validated("  http://example.org/x  "), "http://example.org/x")
        XCTAssertEqual(SharedLink.validated("github.com/ada"), "https://github.com/ada")
    }

    func testAnythingElseIsRefused() {
        for text in ["", "   ", "not a link", "ftp://example.org/file", "javascript:alert(1)", "https://", "mailto:a@b.org",
                     "https://exa mple.org"] {
            XCTAssertNil(SharedLink.validated(text), text)
        }
    }
}

final class RelativeTimeTests: XCTestCase {
    func testRecentTimesReadNaturally() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        XCTAssertEqual(RelativeTime.describe(now.addingTimeInterval(-20), now: now), "just now")
        XCTAssertEqual(RelativeTime.describe(now.addingTimeInterval(-60), now: now), "1 minute ago")
        XCTAssertEqual(RelativeTime.describe(now.addingTimeInterval(-125 * 60), now: now), "2 hours ago")
        XCTAssertEqual(RelativeTime.describe(now.addingTimeInterval(-30 * 3600), now: now), "yesterday")
        XCTAssertEqual(RelativeTime.describe(now.addingTimeInterval(-5 * 86400), now: now), "5 days ago")
        XCTAssertTrue(RelativeTime.describe(now.addingTimeInterval(-90 * 86400), now: now).hasPrefix("on "))
    }
}

final class ConfigurationTests: XCTestCase {
    private var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("otm-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: home)
    }

    func testWithoutSettingsTheAppUsesUdacityNominatimAndOpenStreetMap() {
        let configuration = OnTheMapConfiguration(environment: ["HOME": home.path])
        XCTAssertEqual(configuration.server, ServerAddress.udacity)
        XCTAssertEqual(configuration.geocoder, OnTheMapConfiguration.nominatim)
        XCTAssertEqual(configuration.tileSource, .openStreetMap)
        XCTAssertEqual(configuration.tileCacheFolder.path, home.path + "/.cache/on-the-map/tiles")
        XCTAssertTrue(configuration.problems.isEmpty)
    }

    func testTheEnvironmentPointsTheAppAtLocalServers() {
        let configuration = OnTheMapConfiguration(environment: [
            "HOME": home.path,
            "ON_THE_MAP_API_URL": "http://127.0.0.1:8080/v1/",
            "ON_THE_MAP_GEOCODER_URL": "http://127.0.0.1:9090/",
            "ON_THE_MAP_TILE_URL": "http://127.0.0.1:7070/#Z/#X/#Y.png",
        ])
        XCTAssertEqual(configuration.server.absoluteString, "http://127.0.0.1:8080/v1/")
        XCTAssertTrue(configuration.serverFromEnvironment)
        XCTAssertEqual(configuration.geocoder.absoluteString, "http://127.0.0.1:9090/")
        XCTAssertEqual(configuration.tileSource.template, "http://127.0.0.1:7070/#Z/#X/#Y.png")
        XCTAssertTrue(configuration.problems.isEmpty)
    }

    func testBadValuesFallBackToTheDefaultsAndSayWhy() {
        let configuration = OnTheMapConfiguration(environment: [
            "HOME": home.path,
            "ON_THE_MAP_API_URL": "http://classroom.example.org/v1/", // plain http off this computer
            "ON_THE_MAP_GEOCODER_URL": "nominatim",
            "ON_THE_MAP_TILE_URL": "http://127.0.0.1/tile.png",
        ])
        XCTAssertEqual(configuration.server, ServerAddress.udacity)
        XCTAssertEqual(configuration.geocoder, OnTheMapConfiguration.nominatim)
        XCTAssertEqual(configuration.tileSource, .openStreetMap)
        XCTAssertEqual(configuration.problems.count, 3)
        XCTAssertTrue(configuration.problems.contains { $0.hasPrefix("ON_THE_MAP_API_URL=") }, "\(configuration.problems)")
        XCTAssertTrue(configuration.problems.contains { $0.hasPrefix("ON_THE_MAP_TILE_URL=") }, "\(configuration.problems)")
    }

    func testTheServerOfTheLastLoginIsOfferedNextTime() throws {
        let first = OnTheMapConfiguration(environment: ["HOME": home.path])
        first.rememberServer(URL(string: "https://class.example.org/v1/")!)
        let next = OnTheMapConfiguration(environment: ["HOME": home.path])
        XCTAssertEqual(next.server.absoluteString, "https://class.example.org/v1/")
        XCTAssertFalse(next.serverFromEnvironment)
    }

    func testSignUpOpensTheServersOwnPageOrUdacitys() {
        MainActor.assumeIsolated {
            XCTAssertEqual(LoginPage.signUpAddress(for: URL(string: "http://127.0.0.1:8080/v1/")!),
                           "http://127.0.0.1:8080/signup")
            XCTAssertEqual(LoginPage.signUpAddress(for: ServerAddress.udacity), "https://auth.udacity.com/sign-up")
        }
    }
}

import Foundation
import FlickrClient
import FlickrTestSupport
import Logging
import XCTest

/// A search limited to the years photos were taken in (an album's time), against `Server/flickr_server.py`,
/// whose photo i was taken in 2000 + i % 26.
final class FlickrTakenDateSearchTests: XCTestCase {
    private var server: FlickrTestServer!

    override func setUpWithError() throws {
        server = try FlickrTestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func client() -> FlickrAPIClient {
        let configuration = FlickrConfiguration(endpoint: server.restURL, searchTimeout: 5, appVersion: "9.9")
        return FlickrAPIClient(configuration: configuration, apiKey: "test-key",
                               logger: Logger(label: "test.flickr") { _ in SwiftLogNoOpLogHandler() })
    }

    /// The year the test server's photo was taken in: its place's index is the id's last five digits.
    private func takenYear(_ photo: FlickrPhoto) -> Int {
        2000 + (Int(photo.id.suffix(5)) ?? -1) % 26
    }

    func testADecadeSendsTheFirstAndLastMomentOfItsYears() async throws {
        _ = try await client().searchPhotos(FlickrSearchQuery(latitude: 48.8566, longitude: 2.3522,
                                                              takenYears: 2010...2019))

        let log = try await server.log()
        let search = try XCTUnwrap(log.searches.first)
        XCTAssertEqual(search.query["min_taken_date"], "2010-01-01 00:00:00")
        XCTAssertEqual(search.query["max_taken_date"], "2019-12-31 23:59:59")
        XCTAssertEqual(search.query["min_upload_date"], "946684800", "the other parameters stay")
    }

    func testOnlyPhotosTakenInTheYearsComeBack() async throws {
        let page = try await client().searchPhotos(FlickrSearchQuery(latitude: 48.8566, longitude: 2.3522,
                                                                     perPage: 100, takenYears: 2010...2019))

        XCTAssertEqual(page.total, 37, "indices 10-19, 36-45, 62-71 and 88-94 of the place's 95")
        XCTAssertFalse(page.photos.isEmpty)
        XCTAssertEqual(Set(page.photos.map(takenYear)).subtracting(2010...2019), [])
    }

    func testASingleYear() async throws {
        let page = try await client().searchPhotos(FlickrSearchQuery(latitude: 48.8566, longitude: 2.3522,
                                                                     takenYears: 2015...2015))

        XCTAssertEqual(page.total, 4)
        XCTAssertEqual(Set(page.photos.map(takenYear)), [2015])
    }

    func testAnyTimeSendsNoTakenDates() async throws {
        let page = try await client().searchPhotos(latitude: 48.8566, longitude: 2.3522)

        let log = try await server.log()
        let search = try XCTUnwrap(log.searches.first)
        XCTAssertNil(search.query["min_taken_date"])
        XCTAssertNil(search.query["max_taken_date"])
        XCTAssertEqual(page.total, 95)
    }

    func testImpossibleYearsAreRefusedBeforeAnythingIsSent() async throws {
        do {
            _ = try await client().searchPhotos(FlickrSearchQuery(latitude: 48.8566, longitude: 2.3522,
                                                                  takenYears: 0...10000))
            XCTFail("expected the search to be refused")
        } catch {
            guard case .invalidSearch = error else { return XCTFail("unexpected \(error)") }
        }
        let log = try await server.log()
        XCTAssertTrue(log.searches.isEmpty)
    }
}

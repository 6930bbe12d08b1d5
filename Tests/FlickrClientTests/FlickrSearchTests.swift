import Foundation
import FlickrClient
import Logging
import FlickrTestSupport
import XCTest

/// `FlickrAPIClient` against the real local server in `Server/flickr_server.py`.
final class FlickrSearchTests: XCTestCase {
    private var server: FlickrTestServer!
    private let paris = (latitude: 48.8566, longitude: 2.3522)

    override func setUpWithError() throws {
        server = try FlickrTestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func client(key: String = "test-key", endpoint: URL? = nil, logger: Logger? = nil,
                        adjust: (inout FlickrConfiguration) -> Void = { _ in }) -> FlickrAPIClient {
        var configuration = FlickrConfiguration(endpoint: endpoint ?? server.restURL, searchTimeout: 5, appVersion: "9.9")
        adjust(&configuration)
        return FlickrAPIClient(configuration: configuration, apiKey: key,
                               logger: logger ?? Logger(label: "test.flickr") { _ in SwiftLogNoOpLogHandler() })
    }

    /// Runs `search` and returns the `FlickrError` it threw (failing if it succeeded).
    private func searchError(_ client: FlickrAPIClient, latitude: Double = 48.8566, longitude: Double = 2.3522,
                             file: StaticString = #filePath, line: UInt = #line) async -> FlickrError? {
        do {
            let page = try await client.searchPhotos(latitude: latitude, longitude: longitude)
            XCTFail("expected an error, got \(page.photos.count) photos", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Results

    func testSearchDecodesPhotosAndSkipsEntriesWithoutUsableURLs() async throws {
        let page = try await client().searchPhotos(latitude: paris.latitude, longitude: paris.longitude)

        XCTAssertEqual(page.total, 95, "total arrives as a string")
        XCTAssertEqual(page.pages, 4)
        XCTAssertEqual(page.page, 1)
        XCTAssertEqual(page.perPage, 30)
        // 30 entries: 3 without URLs (i = 9, 19, 29) and 1 malformed (i = 12) are left out.
        XCTAssertEqual(page.photos.count, 26)
        XCTAssertEqual(page.skippedCount, 4)
        XCTAssertEqual(Set(page.photos.map(\.id)).count, 26)

        let medium = page.photos.filter { $0.imageURL.lastPathComponent.hasSuffix("_n.jpg") }
        let squares = page.photos.filter { $0.imageURL.lastPathComponent.hasSuffix("_q.jpg") }
        XCTAssertEqual(medium.count, 23, "url_n is preferred whenever present")
        XCTAssertEqual(squares.count, 3, "url_q is the fallback")
        XCTAssertTrue(medium.allSatisfy { $0.width == 320 && $0.height == 240 }, "width_n as string or number")
        XCTAssertTrue(squares.allSatisfy { $0.width == 150 && $0.height == 150 })
        XCTAssertTrue(page.photos.allSatisfy { $0.imageURL.host == "127.0.0.1" && $0.imageURL.port == server.port })
        XCTAssertTrue(page.photos.allSatisfy { $0.farm == 66 }, "farm as string or number")

        let first = try XCTUnwrap(page.photos.first)
        XCTAssertNil(first.ownerName, "entry 0 has no ownername")
        XCTAssertEqual(first.title, "", "entry 0 has no title")
        XCTAssertEqual(first.owner, "10000000@N00")
        XCTAssertEqual(first.pageURL.absoluteString, "https://www.flickr.com/photos/10000000@N00/\(first.id)")

        let second = page.photos[1]
        XCTAssertEqual(second.ownerName, "Photographer 1")
        XCTAssertEqual(second.title, "Photo 1 near 48.86, 2.35")
        XCTAssertEqual(second.license, "1")
        XCTAssertNotNil(second.secret)
        XCTAssertEqual(second.server, "1001")
    }

    func testLastPageHoldsTheRemainder() async throws {
        let page = try await client().searchPhotos(latitude: paris.latitude, longitude: paris.longitude, page: 4)

        // On even pages the paging numbers arrive as strings and the total as a number.
        XCTAssertEqual(page.page, 4)
        XCTAssertEqual(page.pages, 4)
        XCTAssertEqual(page.perPage, 30)
        XCTAssertEqual(page.total, 95)
        // Entries 90–94; 92 is malformed.
        XCTAssertEqual(page.photos.count, 4)
        XCTAssertEqual(page.skippedCount, 1)
    }

    func testPlainHTTPImageURLsFromOtherHostsAreNotUsed() async throws {
        try await server.configure(["insecure_url_n": true])

        let page = try await client().searchPhotos(latitude: paris.latitude, longitude: paris.longitude)

        XCTAssertEqual(page.photos.count, 26, "every photo still has its url_q")
        XCTAssertTrue(page.photos.allSatisfy { $0.imageURL.lastPathComponent.hasSuffix("_q.jpg") })
        XCTAssertTrue(page.photos.allSatisfy { $0.width == 150 })
    }

    func testPlaceWithoutPhotosHasNoPages() async throws {
        let page = try await client().searchPhotos(latitude: 0, longitude: 0)

        XCTAssertEqual(page.total, 0)
        XCTAssertEqual(page.pages, 0)
        XCTAssertTrue(page.photos.isEmpty)
        XCTAssertEqual(page.lastReachablePage, 1)
    }

    func testSearchSendsFlickrsParameters() async throws {
        _ = try await client().searchPhotos(latitude: paris.latitude, longitude: paris.longitude, page: 2)

        let log = try await server.log()
        let search = try XCTUnwrap(log.searches.first)
        XCTAssertEqual(search.method, "GET")
        XCTAssertEqual(search.path, "/services/rest/")
        XCTAssertEqual(search.query, [
            "method": "flickr.photos.search",
            "api_key": "test-key",
            "lat": "48.856600",
            "lon": "2.352200",
            "radius": "5",
            "radius_units": "km",
            "min_upload_date": "946684800",
            "safe_search": "1",
            "content_type": "1",
            "media": "photos",
            "extras": "url_q,url_n,url_z,url_b,owner_name,license",
            "per_page": "30",
            "page": "2",
            "format": "json",
            "nojsoncallback": "1",
        ])
        XCTAssertEqual(search.user_agent, "VirtualTourist/9.9")
    }

    func testConfiguredRadiusAndAlbumSizeAreSent() async throws {
        let client = client { $0.radiusKilometers = 2.5; $0.albumSize = 12 }

        let page = try await client.searchPhotos(FlickrSearchQuery(latitude: -33.8688, longitude: 151.2093, page: 3))

        let log = try await server.log()
        let search = try XCTUnwrap(log.searches.first)
        XCTAssertEqual(search.query["radius"], "2.5")
        XCTAssertEqual(search.query["per_page"], "12")
        XCTAssertEqual(search.query["page"], "3")
        XCTAssertEqual(search.query["lat"], "-33.868800")
        XCTAssertEqual(page.perPage, 12)
        XCTAssertEqual(page.pages, 8)
    }

    func testPhotoCountCanBeSetPerPlace() async throws {
        try await server.configure(["totals": ["48.8566,2.3522": 7]])

        let page = try await client().searchPhotos(latitude: paris.latitude, longitude: paris.longitude)

        XCTAssertEqual(page.total, 7)
        XCTAssertEqual(page.pages, 1)
    }

    // MARK: - Flickr's own failures

    func testRejectedKeyBecomesInvalidAPIKeyWithAnActionableMessage() async throws {
        let error = await searchError(client(key: "bad-key"))

        XCTAssertEqual(error, .invalidAPIKey)
        XCTAssertEqual(error?.userMessage, "Flickr rejected the API key. Check it in Preferences.")
        XCTAssertEqual(error?.isTransient, false)
        let log = try await server.log()
        XCTAssertEqual(log.searches.first?.query["api_key"], "bad-key", "sent as a parameter")
    }

    func testServiceUnavailableIsTransient() async throws {
        try await server.inject("search", "stat_fail", ["code": 105])

        let error = await searchError(client())

        XCTAssertEqual(error, .serviceUnavailable)
        XCTAssertEqual(error?.userMessage, "Flickr is temporarily unavailable. Try again in a few minutes.")
        XCTAssertEqual(error?.isTransient, true)
    }

    func testSearchUnavailableAndOtherCodes() async throws {
        try await server.inject("search", "stat_fail", times: 1, ["code": 10])
        let unavailable = await searchError(client())
        XCTAssertEqual(unavailable, .searchUnavailable)

        try await server.inject("search", "stat_fail", times: 1, ["code": 18, "message": "Illogical arguments"])
        let other = await searchError(client())
        XCTAssertEqual(other, .apiFailure(code: 18, message: "Illogical arguments"))
        XCTAssertEqual(other?.errorDescription, "Flickr couldn't complete the search: Illogical arguments (error 18).")
        XCTAssertEqual(other?.isTransient, false)
    }

    func testServerErrorIsTransientHTTPStatus() async throws {
        try await server.inject("search", "http_status", ["status": 500])

        let error = await searchError(client())

        XCTAssertEqual(error, .httpStatus(500))
        XCTAssertEqual(error?.isTransient, true)
        XCTAssertEqual(error?.errorDescription, "Flickr's server ran into a problem (HTTP 500).")
    }

    func testClientErrorStatusIsNotTransient() async throws {
        try await server.inject("search", "http_status", ["status": 403])

        let error = await searchError(client())

        XCTAssertEqual(error, .httpStatus(403))
        XCTAssertEqual(error?.isTransient, false)
    }

    func testSlowAnswerTimesOut() async throws {
        try await server.inject("search", "delay", ["seconds": 3])
        let started = Date()

        let error = await searchError(client { $0.searchTimeout = 0.5 })

        XCTAssertEqual(error, .timedOut)
        XCTAssertEqual(error?.isTransient, true)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.45, "waited for the configured time-out")
        XCTAssertLessThan(elapsed, 2, "gave up long before the server answered")
    }

    func testClosedPortIsCannotConnectNotTimeout() async throws {
        let port = try closedLocalPort()
        let endpoint = URL(string: "http://127.0.0.1:\(port)/services/rest/")!

        let error = await searchError(client(endpoint: endpoint))

        XCTAssertEqual(error, .cannotConnect(host: "127.0.0.1"))
        XCTAssertEqual(error?.isConnectivityProblem, true)
        XCTAssertNotEqual(error, .timedOut)
    }

    func testBrokenJSONIsInvalidResponse() async throws {
        try await server.inject("search", "bad_json")
        let error = await searchError(client())
        XCTAssertEqual(error, .invalidResponse(.notJSON))
        XCTAssertEqual(error?.isTransient, false)
    }

    func testHTMLPageIsInvalidResponse() async throws {
        try await server.inject("search", "html")
        let error = await searchError(client())
        XCTAssertEqual(error, .invalidResponse(.notJSON))
    }

    func testJSONPAnswerIsRecognised() async throws {
        try await server.inject("search", "jsonp")

        let error = await searchError(client())

        XCTAssertEqual(error, .invalidResponse(.jsonp))
        // Words for the person using the app: what happened and what to do, not the request's parameters.
        XCTAssertEqual(error?.userMessage.contains("nojsoncallback"), false)
        XCTAssertTrue(error?.recoverySuggestion?.hasPrefix("Try again later.") == true)
    }

    func testMissingKeyFailsWithoutARequest() async throws {
        let error = await searchError(client(key: "  \n"))

        XCTAssertEqual(error, .missingAPIKey)
        let log = try await server.log()
        XCTAssertEqual(log.requests.count, 0)
    }

    func testInvalidSearchIsRefusedWithoutARequest() async throws {
        for adjust in [{ (c: inout FlickrConfiguration) in c.radiusKilometers = 0 },
                       { $0.radiusKilometers = 32 },
                       { $0.albumSize = 0 },
                       { $0.albumSize = 501 }] as [(inout FlickrConfiguration) -> Void] {
            let error = await searchError(client(adjust: adjust))
            guard case .invalidSearch = error else { return XCTFail("expected invalidSearch, got \(String(describing: error))") }
        }
        let offMap = await searchError(client(), latitude: 91, longitude: 0)
        guard case .invalidSearch = offMap else { return XCTFail("expected invalidSearch") }
        let log = try await server.log()
        XCTAssertEqual(log.requests.count, 0)
    }

    func testCancellingTheSearchTaskStopsIt() async throws {
        try await server.inject("search", "delay", ["seconds": 5])
        let client = client()
        let search = Task { () async throws(FlickrError) -> FlickrSearchPage in
            try await client.searchPhotos(latitude: 1, longitude: 2)
        }
        try await server.waitForLog { $0.searches.count == 1 }
        let started = Date()

        search.cancel()
        let result = await search.result

        XCTAssertEqual(result.failure as? FlickrError, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "did not wait for the server")
    }

    // MARK: - Transport security

    func testPlainHTTPToAnotherHostIsRefusedWithoutARequest() async throws {
        let error = await searchError(client(endpoint: URL(string: "http://example.com/services/rest/")!))
        XCTAssertEqual(error, .insecureEndpoint(host: "example.com"))
        XCTAssertEqual(error?.recoverySuggestion, "Use an https:// address. Plain http:// is only allowed for this computer (localhost).")
    }

    func testRefusedEndpointSendsNothing() async throws {
        // The machine's own name resolves to a loopback address, so the server is reachable through it;
        // but names other than "localhost" are not trusted for plain HTTP (the check never resolves
        // names), so the client must refuse it before sending anything.
        let name = machineHostName()
        guard !name.isEmpty, !TransportSecurity.isLoopback(host: name) else { throw XCTSkip("no usable host name") }
        server.stop()
        do {
            server = try FlickrTestServer(listenHost: name, host: name)
        } catch {
            throw XCTSkip("the server cannot listen on \(name) (no address for it here): \(error)")
        }
        do {
            _ = try await server.log()  // reachable through that name…
        } catch {
            throw XCTSkip("\(name) does not reach this machine: \(error)")
        }

        let error = await searchError(client(endpoint: server.restURL))

        XCTAssertEqual(error, .insecureEndpoint(host: name))  // …yet the client refuses it
        let log = try await server.log()
        XCTAssertEqual(log.searches.count, 0)  // and nothing was sent.
    }

    func testLoopbackHostsAreRecognised() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.10.20.30", "::1", "[::1]"] {
            XCTAssertTrue(TransportSecurity.isLoopback(host: host), host)
        }
        for host in ["128.0.0.1", "10.0.0.1", "127.0.0.1.example.com", "localhost.example.com", "1270.0.0.1",
                     "127.0.0", "example.com", "::2"] {
            XCTAssertFalse(TransportSecurity.isLoopback(host: host), host)
        }
    }

    func testEndpointComesFromTheEnvironment() throws {
        XCTAssertEqual(try FlickrConfiguration.fromEnvironment([:], appVersion: "1").endpoint,
                       URL(string: "https://api.flickr.com/services/rest/"))
        let local = try FlickrConfiguration.fromEnvironment(
            ["VIRTUAL_TOURIST_FLICKR_URL": "http://127.0.0.1:8123/services/rest/"], appVersion: "1.2")
        XCTAssertEqual(local.endpoint.absoluteString, "http://127.0.0.1:8123/services/rest/")
        XCTAssertEqual(local.userAgent, "VirtualTourist/1.2")
        XCTAssertEqual(try FlickrConfiguration.fromEnvironment(
            ["VIRTUAL_TOURIST_FLICKR_URL": "https://flickr.example.org/rest/"], appVersion: "1").endpoint.host,
                       "flickr.example.org")

        XCTAssertThrowsError(try FlickrConfiguration.fromEnvironment(
            ["VIRTUAL_TOURIST_FLICKR_URL": "http://flickr.example.org/rest/"], appVersion: "1")) {
            XCTAssertEqual($0 as? FlickrError, .insecureEndpoint(host: "flickr.example.org"))
        }
        XCTAssertThrowsError(try FlickrConfiguration.fromEnvironment(
            ["VIRTUAL_TOURIST_FLICKR_URL": "ftp://flickr.example.org/"], appVersion: "1")) {
            guard case .invalidEndpoint = $0 as? FlickrError else { return XCTFail("\($0)") }
        }
    }

    // MARK: - The key stays secret

    func testKeyNeverAppearsInErrorsOrLogs() async throws {
        let key = "5ecret-key-0123456789"
        let recorder = LogRecorder()
        let client = client(key: key, logger: .recording(into: recorder))
        var errors: [FlickrError] = []

        try await server.inject("search", "stat_fail", times: 1, ["code": 100, "message": "Invalid API Key (\(key))"])
        errors += [await searchError(client)].compactMap { $0 }
        try await server.inject("search", "stat_fail", times: 1, ["code": 99, "message": "Key \(key) is not allowed"])
        errors += [await searchError(client)].compactMap { $0 }
        for kind in ["bad_json", "jsonp"] {
            try await server.inject("search", kind, times: 1)
            errors += [await searchError(client)].compactMap { $0 }
        }
        try await server.inject("search", "http_status", times: 1, ["status": 502])
        errors += [await searchError(client)].compactMap { $0 }
        _ = try await client.searchPhotos(latitude: 1, longitude: 1)

        XCTAssertEqual(errors.count, 5)
        let log = try await server.log()
        XCTAssertEqual(log.searches.map { $0.query["api_key"] }, Array(repeating: key, count: 6))
        for error in errors {
            for text in [error.errorDescription, error.recoverySuggestion, error.userMessage,
                         "\(error)", String(reflecting: error), error.localizedDescription].compactMap({ $0 }) {
                XCTAssertFalse(text.contains(key), "key leaked: \(text)")
            }
        }
        XCTAssertFalse(recorder.lines.isEmpty)
        XCTAssertTrue(recorder.lines.contains { $0.contains("api_key=REDACTED") }, "requests are logged, redacted")
        for line in recorder.lines {
            XCTAssertFalse(line.contains(key), "key leaked into the log: \(line)")
        }
    }

    func testRedactionHidesTheKeyInURLs() {
        let url = URL(string: "https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=abc123&lat=1")!
        let text = Redaction.redactedDescription(of: url)
        XCTAssertEqual(text, "https://api.flickr.com/services/rest/?method=flickr.photos.search&api_key=REDACTED&lat=1")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// Answers no server should send, straight to the decoder (fuzzer findings among them).
final class SearchResponseDecodingTests: XCTestCase {
    func testAHugeTotalWithoutPagesIsNotACrash() throws {
        let body = Data(#"{"photos":{"perpage":2,"total":9223372036854775807,"photo":[]},"stat":"ok"}"#.utf8)
        let page = try SearchResponseDecoding.decode(body, requestedPage: 1, requestedPerPage: 2)
        XCTAssertEqual(page.pages, Int.max / 2 + 1)
    }

    func testTheViewersBiggerSizeIsUrlBThenUrlZAndNeverAnInsecureOne() throws {
        let body = Data(#"""
            {"photos":{"page":1,"pages":1,"perpage":4,"total":4,"photo":[
              {"id":"1","owner":"o","url_n":"https://live.staticflickr.com/1/1_a_n.jpg",
               "url_z":"https://live.staticflickr.com/1/1_a_z.jpg","url_b":"https://live.staticflickr.com/1/1_a_b.jpg"},
              {"id":"2","owner":"o","url_n":"https://live.staticflickr.com/1/2_a_n.jpg",
               "url_z":"https://live.staticflickr.com/1/2_a_z.jpg"},
              {"id":"3","owner":"o","url_n":"https://live.staticflickr.com/1/3_a_n.jpg"},
              {"id":"4","owner":"o","url_n":"https://live.staticflickr.com/1/4_a_n.jpg",
               "url_b":"http://elsewhere.example/4_a_b.jpg","url_z":42}
            ]},"stat":"ok"}
            """#.utf8)
        let photos = try SearchResponseDecoding.decode(body, requestedPage: 1, requestedPerPage: 4).photos
        XCTAssertEqual(photos.map { $0.largeImageURL?.lastPathComponent }, ["1_a_b.jpg", "2_a_z.jpg", nil, nil])
    }

    /// Titles and owners' names are shown as they come: a right-to-left override would reverse what follows it.
    func testTitlesAndOwnerNamesArriveAsPlainText() throws {
        let long = String(repeating: "y", count: 10_257)
        let body = Data(#"""
            {"photos":{"page":1,"pages":1,"perpage":2,"total":2,"photo":[
              {"id":"1","owner":"o","ownername":"\u202Egnp.exe","title":"Sunset\n\tover\u0007 Lisbon",
               "url_n":"https://live.staticflickr.com/1/1_a_n.jpg"},
              {"id":"2","owner":"o","ownername":"\u2066\u2069","title":"\#(long)","url_n":"https://live.staticflickr.com/1/2_a_n.jpg"}
            ]},"stat":"ok"}
            """#.utf8)
        let photos = try SearchResponseDecoding.decode(body, requestedPage: 1, requestedPerPage: 2).photos
        XCTAssertEqual(photos.map(\.title), ["Sunset over Lisbon", String(repeating: "y", count: 199) + "…"])
        XCTAssertEqual(photos.map(\.ownerName), ["gnp.exe", nil])
    }
}

import FlickrClient
import FlickrTestSupport
import Foundation
import Logging
import XCTest

/// Photo downloads and searches through a real HTTP proxy (tinyproxy), chosen the way curl chooses it: `http_proxy`
/// for plain addresses (the test server is plain http on loopback), `no_proxy` for those that go direct.
/// Its log shows each tunnel (`CONNECT host:port`) it opened.
final class PhotoDownloaderProxyTests: XCTestCase {
    private var server: FlickrTestServer!
    private var proxy: TestProxy!
    private var folder: URL!

    override func setUpWithError() throws {
        server = try FlickrTestServer()
        proxy = try TestProxy()
        folder = try makeTemporaryFolder()
    }

    override func tearDownWithError() throws {
        server?.stop()
        proxy?.stop()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func download(_ names: [String], environment: [String: String]) async throws -> [String: Result<Int, FlickrError>] {
        var configuration = try FlickrConfiguration.fromEnvironment(environment, appVersion: "2.0")
        configuration.endpoint = server.restURL
        configuration.retryCount = 0
        configuration.downloadTimeout = 5
        let downloader = PhotoDownloader(configuration: configuration,
                                         stagingFolder: folder.appendingPathComponent("staging"),
                                         logger: Logger(label: "test.proxy") { _ in SwiftLogNoOpLogHandler() })
        let results = Results()
        await downloader.download(names.map { PhotoDownloadRequest(photoID: $0, source: server.imageURL("\($0).jpg")) }) {
            event in
            results.set(event.photoID, event.result.map { staged in
                (try? Data(contentsOf: staged.file).count) ?? 0
            })
        }
        return results.values
    }

    func testPhotosGoThroughTheProxyNamedByHTTPProxy() async throws {
        let results = try await download(["a", "b", "c"], environment: ["http_proxy": proxy.address])

        XCTAssertEqual(results.count, 3)
        XCTAssertTrue(results.values.allSatisfy { ((try? $0.get()) ?? 0) > 0 }, "\(results)")
        let images = try await server.log().images
        XCTAssertEqual(images.count, 3)
        // AsyncHTTPClient tunnels through an HTTP proxy (CONNECT) for plain addresses too.
        let forwarded = proxy.forwardedRequests()
        XCTAssertFalse(forwarded.isEmpty)
        XCTAssertEqual(Set(forwarded), ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"], "every connection went through the proxy")
    }

    func testSearchesGoThroughTheSameProxyAsPhotos() async throws {
        var configuration = try FlickrConfiguration.fromEnvironment(["http_proxy": proxy.address], appVersion: "2.0")
        configuration.endpoint = server.restURL
        let client = FlickrAPIClient(configuration: configuration, apiKey: "test-key",
                                     logger: Logger(label: "test.proxy") { _ in SwiftLogNoOpLogHandler() })

        let page = try await client.searchPhotos(latitude: 48.8566, longitude: 2.3522)

        XCTAssertFalse(page.photos.isEmpty)
        let searches = try await server.log().searches
        XCTAssertEqual(searches.count, 1)
        XCTAssertEqual(Set(proxy.forwardedRequests()), ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"],
                       "the search went through the proxy")
    }

    func testAHostInNoProxyGoesDirect() async throws {
        let results = try await download(["a"], environment: ["http_proxy": proxy.address, "no_proxy": "localhost,127.0.0.1"])

        XCTAssertGreaterThan((try? XCTUnwrap(results["a"]).get()) ?? 0, 0)
        let images = try await server.log().images
        XCTAssertEqual(images.count, 1)
        XCTAssertEqual(proxy.forwardedRequests(), [], "not through the proxy")
    }

    func testAProxyThatCannotBeReachedIsNamedInTheFailure() async throws {
        let closed = try closedLocalPort()
        let results = try await download(["a"], environment: ["http_proxy": "http://user:hunter2@127.0.0.1:\(closed)"])

        guard case .failure(let error)? = results["a"] else { return XCTFail("\(results)") }
        XCTAssertEqual(error, .proxyFailed(proxy: "127.0.0.1:\(closed)"))
        XCTAssertEqual(error.userMessage, "Virtual Tourist couldn't get through the proxy 127.0.0.1:\(closed). Check the "
                       + "proxy settings (https_proxy, http_proxy, no_proxy), and whether the proxy needs a user name and password.")
        let images = try await server.log().images
        XCTAssertEqual(images.count, 0, "nothing went around the proxy")
    }
}

private final class Results: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String: Result<Int, FlickrError>] = [:]
    var values: [String: Result<Int, FlickrError>] { lock.withLock { stored } }
    func set(_ id: String, _ result: Result<Int, FlickrError>) { lock.withLock { stored[id] = result } }
}

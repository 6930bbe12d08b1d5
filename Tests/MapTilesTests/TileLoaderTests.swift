import FlickrTestSupport
import Foundation
import WebAccess
import XCTest
@testable import MapTiles

final class TileLoaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-loader-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [TileLoader.Event] = []
        func append(_ event: TileLoader.Event) { lock.withLock { events.append(event) } }
        var all: [TileLoader.Event] { lock.withLock { events } }
    }

    /// A loader against a closed local port (connection refused: as offline as it gets).
    private func offlineLoader(basemap: URL?, events: Events) -> (TileLoader, TileCache) {
        let cache = TileCache(folder: folder)
        let configuration = TileLoader.Configuration(
            template: TileURLTemplate("http://127.0.0.1:9/#Z/#X/#Y.png", maxZoom: 19), cache: cache,
            basemap: { basemap }, userAgent: "MapTilesTests/1")
        return (TileLoader(configuration) { events.append($0) }, cache)
    }

    private func waitFor(_ condition: () -> Bool, timeout: TimeInterval = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    func testOfflineWithAnEmptyCacheTheBasemapStandsInAndUnreachableIsSaidOnce() throws {
        let events = Events()
        let (loader, cache) = offlineLoader(basemap: BasemapTests.shipped, events: events)
        let view = TileID.covering(originX: 0, originY: 0, width: 1024, height: 1024, zoom: 2)
        loader.show(view)
        waitFor { view.allSatisfy { cache.state(of: $0) == .standIn } }
        XCTAssertTrue(view.allSatisfy { cache.state(of: $0) == .standIn })

        loader.show(view) // retrying while still offline
        waitFor({ false }, timeout: 1)
        let said = events.all.filter { if case .unreachable = $0 { return true } else { return false } }
        XCTAssertEqual(said.count, 1, "\(events.all)")
        XCTAssertFalse(events.all.contains(.reachable))
    }

    func testDeepTilesGetTheirAncestorFromTheBasemapAndRealTilesAreKept() throws {
        let events = Events()
        let (loader, cache) = offlineLoader(basemap: BasemapTests.shipped, events: events)
        let real = TileID(zoom: 5, x: 16, y: 10)
        try cache.store(Data("real".utf8), for: real)
        let deep = TileID(zoom: 12, x: 2100, y: 1400) // under 5/16/10 (a real tile) and beside 5/17/10
        let other = TileID(zoom: 12, x: 2200, y: 1400)
        loader.show([deep, other])
        waitFor { cache.state(of: other.ancestor(atZoom: 5)) == .standIn }
        XCTAssertEqual(cache.state(of: other.ancestor(atZoom: 5)), .standIn)
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: real)), Data("real".utf8))
        XCTAssertEqual(cache.state(of: deep), .missing)
    }

    func testAProbeAsksTheServerEvenWhenEveryTileInViewIsFresh() throws {
        let events = Events()
        let (loader, cache) = offlineLoader(basemap: nil, events: events)
        let tile = TileID(zoom: 3, x: 4, y: 2)
        try cache.store(Data("real".utf8), for: tile)
        let unreachable: () -> Bool = {
            events.all.contains { if case .unreachable = $0 { return true } else { return false } }
        }
        loader.show([tile])
        waitFor({ false }, timeout: 0.5)
        XCTAssertFalse(unreachable(), "a fresh tile is not fetched again")
        loader.show([tile], probe: true)
        waitFor(unreachable)
        XCTAssertTrue(unreachable(), "the probe found the server unreachable")
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), Data("real".utf8))
    }

    func testABrokenBasemapIsReportedOnceAndLeavesTheCacheAlone() throws {
        let broken = folder.appendingPathComponent("broken.mbtiles")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x42, count: 2048).write(to: broken)
        let events = Events()
        let (loader, cache) = offlineLoader(basemap: broken, events: events)
        let tile = TileID(zoom: 2, x: 1, y: 1)
        loader.show([tile])
        waitFor { events.all.contains { if case .unreachable = $0 { return true } else { return false } } }
        loader.show([tile])
        waitFor({ false }, timeout: 1)
        let failures = events.all.filter { if case .basemapFailed = $0 { return true } else { return false } }
        XCTAssertEqual(failures.count, 1, "\(events.all)")
        XCTAssertEqual(cache.state(of: tile), .missing)
    }

    func testAnErrorPageSentWithStatus200IsNeverCachedAsATile() async throws {
        let server = try FlickrTestServer() // serves real JPEGs under /images/, with faults on demand
        defer { server.stop() }
        let events = Events()
        let cache = TileCache(folder: folder)
        let template = TileURLTemplate(server.baseURL.absoluteString + "/images/#Z_#X_#Y.jpg", maxZoom: 19)
        let loader = TileLoader(TileLoader.Configuration(template: template, cache: cache,
                                                         basemap: { BasemapTests.shipped },
                                                         userAgent: "MapTilesTests/1")) { events.append($0) }
        let tile = TileID(zoom: 3, x: 4, y: 2)
        try await server.inject("image", "html", times: 1)
        loader.show([tile])
        waitFor { cache.state(of: tile) != .missing }
        XCTAssertEqual(cache.state(of: tile), .standIn, "an HTML page is not a tile: the basemap stands in")

        loader.show([tile])
        waitFor { cache.state(of: tile) == .fresh }
        XCTAssertEqual(cache.state(of: tile), .fresh)
        XCTAssertTrue(TileLoader.looksLikeAnImage(try Data(contentsOf: cache.fileURL(for: tile))))
        XCTAssertFalse(TileLoader.looksLikeAnImage(Data("<html>".utf8)))
        XCTAssertFalse(TileLoader.looksLikeAnImage(Data()))
    }

    func testTilesGoThroughTheProxyTheEnvironmentNames() async throws {
        let server = try FlickrTestServer()
        let proxy = try TestProxy()
        defer { server.stop(); proxy.stop() }
        let cache = TileCache(folder: folder)
        var configuration = TileLoader.Configuration(
            template: TileURLTemplate(server.baseURL.absoluteString + "/images/#Z_#X_#Y.jpg", maxZoom: 19),
            cache: cache, basemap: { nil }, userAgent: "MapTilesTests/1")
        configuration.web = WebClient(environment: ["http_proxy": proxy.address])
        let loader = TileLoader(configuration) { _ in }
        let tile = TileID(zoom: 3, x: 4, y: 2)

        loader.show([tile])
        waitFor { cache.state(of: tile) == .fresh }

        XCTAssertEqual(cache.state(of: tile), .fresh)
        XCTAssertEqual(Set(proxy.forwardedRequests()), ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"],
                       "the tile came through the proxy")
    }
}

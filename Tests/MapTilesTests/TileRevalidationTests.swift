import Foundation
import XCTest
@testable import MapTiles

/// The tile loader against a local tile server as OpenStreetMap's tile policy asks it to behave: validators kept,
/// nothing asked while a tile is fresh (a week at least), stale tiles asked for conditionally, 304s renewing
/// without a download, and no request ever asking caches to be bypassed.
final class TileRevalidationTests: XCTestCase {
    private static let day: TimeInterval = 24 * 60 * 60
    private let tile = TileID(zoom: 3, x: 4, y: 2)
    private var folder: URL!
    private var server: CachingTileServer!
    private var clock: TestClock!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-revalidation-\(UUID().uuidString)")
        server = try CachingTileServer()
        clock = TestClock()
    }

    override func tearDownWithError() throws {
        // Whatever the test did, no request asked the server's caches to be bypassed.
        if let requests = try? server.requests() {
            for request in requests {
                XCTAssertNil(request.headers["cache-control"], "\(request.path) carried Cache-Control")
                XCTAssertNil(request.headers["pragma"], "\(request.path) carried Pragma")
            }
        }
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Helpers

    final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded()) // whole seconds, as kept
        var date: Date { lock.withLock { now } }
        func advance(days: Double) { lock.withLock { now += days * TileRevalidationTests.day } }
    }

    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [TileLoader.Event] = []
        func append(_ event: TileLoader.Event) { lock.withLock { events.append(event) } }
        var all: [TileLoader.Event] { lock.withLock { events } }
    }

    private func makeLoader(_ events: Events = Events(), template: String? = nil) -> (TileLoader, TileCache) {
        let cache = TileCache(folder: folder)
        var configuration = TileLoader.Configuration(template: TileURLTemplate(template ?? server.template, maxZoom: 19),
                                                     cache: cache, basemap: { nil }, userAgent: "MapTilesTests/1")
        configuration.now = { [clock] in clock!.date }
        return (TileLoader(configuration) { events.append($0) }, cache)
    }

    private func waitFor(_ condition: () throws -> Bool, timeout: TimeInterval = 10) rethrows {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Shows the tiles and waits for the server to have had `count` requests in all (or, when that is how many it
    /// had already, long enough for any request the loader would make to have arrived).
    private func show(_ loader: TileLoader, _ tiles: [TileID], expectingRequests count: Int) throws -> [CachingTileServer.Request] {
        let before = try server.requests().count
        loader.show(tiles, probe: false)
        loader.waitUntilIdle()
        if count > before {
            try waitFor { try server.requests().count >= count }
        } else {
            Thread.sleep(forTimeInterval: 0.5)
        }
        let requests = try server.requests()
        guard requests.count == count else {
            XCTFail("\(count) requests expected, \(requests.count) so far: \(requests.map(\.path))")
            throw UnexpectedRequests()
        }
        return requests
    }

    private struct UnexpectedRequests: Error {}

    private func waitForEvent(_ events: Events, _ event: TileLoader.Event) {
        waitFor { events.all.contains(event) }
        XCTAssertTrue(events.all.contains(event), "\(events.all)")
    }

    private func fetchOnce(_ loader: TileLoader, _ cache: TileCache, _ events: Events) throws -> Data {
        let first = try show(loader, [tile], expectingRequests: 1)
        XCTAssertFalse(first[0].isConditional, "nothing kept yet: nothing to be conditional on")
        XCTAssertEqual(first[0].headers["user-agent"], "MapTilesTests/1")
        waitForEvent(events, .arrived(tile, replacedStandIn: false))
        return try Data(contentsOf: cache.fileURL(for: tile))
    }

    /// A loader that has fetched `tile` once, from the server as configured so far, and the tile's bytes.
    private func loaderThatFetchedTheTile() throws -> (loader: TileLoader, cache: TileCache, events: Events, bytes: Data) {
        let events = Events()
        let (loader, cache) = makeLoader(events)
        return (loader, cache, events, try fetchOnce(loader, cache, events))
    }

    // MARK: - Tests

    func testTheFirstFetchKeepsTheTilesETagAndLastModified() throws {
        let (_, cache, _, _) = try loaderThatFetchedTheTile()
        let kept = try XCTUnwrap(cache.freshness(of: tile))
        XCTAssertEqual(kept.etag, "\"v1-3-4-2\"")
        XCTAssertEqual(kept.lastModified, "Tue, 14 Nov 2023 22:13:20 GMT")
        XCTAssertEqual(kept.freshUntil, clock.date + 7 * Self.day, "nothing said: a week")
    }

    func testWithinMaxAgeASecondLookSendsNothingEvenAfterARestart() throws {
        try server.configure(["cache_control": "public, max-age=\(30 * 86_400)"])
        let (loader, cache, _, _) = try loaderThatFetchedTheTile()
        clock.advance(days: 20)
        _ = try show(loader, [tile], expectingRequests: 1)
        XCTAssertEqual(cache.state(of: tile, now: clock.date), .fresh)

        let (restarted, _) = makeLoader() // what was said is kept on disk
        _ = try show(restarted, [tile], expectingRequests: 1)
    }

    func testAfterExpiryA304RenewsTheTileWithoutADownload() throws {
        try server.configure(["cache_control": "max-age=3600"])
        let (loader, cache, events, bytes) = try loaderThatFetchedTheTile()
        let file = cache.fileURL(for: tile)
        let written = try FileManager.default.attributesOfItem(atPath: file.path)

        clock.advance(days: 8)
        XCTAssertEqual(cache.state(of: tile, now: clock.date), .stale)
        let requests = try show(loader, [tile], expectingRequests: 2)
        XCTAssertEqual(requests[1].headers["if-none-match"], "\"v1-3-4-2\"")
        XCTAssertEqual(requests[1].headers["if-modified-since"], "Tue, 14 Nov 2023 22:13:20 GMT")
        XCTAssertEqual(requests[1].status, 304)
        waitForEvent(events, .renewed(tile))

        XCTAssertEqual(try Data(contentsOf: file), bytes, "the kept bytes stay")
        let after = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual(after[.systemFileNumber] as? Int, written[.systemFileNumber] as? Int, "the file was not rewritten")
        XCTAssertEqual(cache.freshness(of: tile)?.freshUntil, clock.date + 7 * Self.day,
                       "fresh again by the 304's headers (an hour, raised to a week)")
        XCTAssertEqual(events.all.filter { if case .arrived = $0 { return true } else { return false } }.count, 1,
                       "one download: the first")

        clock.advance(days: 6)
        _ = try show(loader, [tile], expectingRequests: 2)
        clock.advance(days: 2)
        XCTAssertEqual(try show(loader, [tile], expectingRequests: 3)[2].status, 304)
    }

    func testAfterExpiryA200ReplacesTheTileAndItsValidators() throws {
        let (loader, cache, _, old) = try loaderThatFetchedTheTile()
        try server.configure(["version": 2])

        clock.advance(days: 8)
        let requests = try show(loader, [tile], expectingRequests: 2)
        XCTAssertEqual(requests[1].headers["if-none-match"], "\"v1-3-4-2\"")
        XCTAssertEqual(requests[1].status, 200)
        waitFor { (try? Data(contentsOf: cache.fileURL(for: tile))) != old }
        let new = try Data(contentsOf: cache.fileURL(for: tile))
        XCTAssertEqual(new.suffix(13), Data("tile 3/4/2 v2".utf8), "the new version replaced the old")
        XCTAssertEqual(cache.freshness(of: tile)?.etag, "\"v2-3-4-2\"")
        XCTAssertEqual(cache.freshness(of: tile)?.lastModified, "Wed, 15 Nov 2023 22:13:20 GMT")
        XCTAssertEqual(cache.state(of: tile, now: clock.date), .fresh)
    }

    func testAMaxAgeBelowAWeekIsRaisedToAWeek() throws {
        try server.configure(["cache_control": "max-age=60, s-maxage=\(60 * 86_400)"]) // s-maxage: shared caches' only
        let (loader, _, _, _) = try loaderThatFetchedTheTile()
        clock.advance(days: 6.9)
        _ = try show(loader, [tile], expectingRequests: 1)
        clock.advance(days: 0.2)
        XCTAssertTrue(try show(loader, [tile], expectingRequests: 2)[1].isConditional)
    }

    func testExpiresCountsFromTheServersDateNotThisClock() throws {
        // The server's clock is ten days slow; its tiles expire 30 days after its Date. Read against this
        // machine's clock, they would expire in 20 days.
        try server.configure(["date_offset": -10 * 86_400, "expires_in": 30 * 86_400])
        let (loader, _, _, _) = try loaderThatFetchedTheTile()
        clock.advance(days: 25)
        _ = try show(loader, [tile], expectingRequests: 1)
        clock.advance(days: 6)
        let requests = try show(loader, [tile], expectingRequests: 2)
        XCTAssertEqual(requests[1].headers["if-none-match"], "\"v1-3-4-2\"")
    }

    func testNoCacheFromTheServerStillKeepsTheTileAWeek() throws {
        try server.configure(["cache_control": "no-cache"])
        let (loader, cache, _, _) = try loaderThatFetchedTheTile()
        clock.advance(days: 6)
        XCTAssertEqual(cache.state(of: tile, now: clock.date), .fresh, "the policy's week is the floor")
        _ = try show(loader, [tile], expectingRequests: 1)
        clock.advance(days: 2)
        let requests = try show(loader, [tile], expectingRequests: 2)
        XCTAssertEqual(requests[1].headers["if-none-match"], "\"v1-3-4-2\"", "after the week: revalidated")
    }

    func testOfflineAStaleTileStaysWhateverItsAge() throws {
        let (loader, cache, events, bytes) = try loaderThatFetchedTheTile()
        server.stop()

        clock.advance(days: 400)
        loader.show([tile], probe: false)
        waitFor { events.all.contains { if case .unreachable = $0 { return true } else { return false } } }
        loader.waitUntilIdle()
        XCTAssertEqual(cache.state(of: tile, now: clock.date), .stale)
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), bytes, "the old tile is still the map")
        XCTAssertNotNil(cache.freshness(of: tile), "and still revalidated once the server is back")
    }

    func testATileKeptByAnOlderVersionIsFetchedWholeOnceStaleAndThenGetsItsValidators() throws {
        // An older version kept tiles as files only: fresh for a week by their file's time.
        let cache = TileCache(folder: folder)
        try cache.store(Data("old".utf8), for: tile)
        let eightDaysAgo = Date().addingTimeInterval(-8 * Self.day)
        try FileManager.default.setAttributes([.modificationDate: eightDaysAgo], ofItemAtPath: cache.fileURL(for: tile).path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(TileFreshnessDatabase.fileName).path),
                       "a tile kept without what the server said makes no records file")

        let events = Events()
        let (loader, _) = makeLoader(events)
        let requests = try show(loader, [tile], expectingRequests: 1)
        XCTAssertFalse(requests[0].isConditional, "nothing to be conditional on")
        waitForEvent(events, .arrived(tile, replacedStandIn: false))
        XCTAssertEqual(cache.freshness(of: tile)?.etag, "\"v1-3-4-2\"")
    }
}

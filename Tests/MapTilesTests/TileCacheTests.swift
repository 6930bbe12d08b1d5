import GRDB
import XCTest
@testable import MapTiles

final class TileCacheTests: XCTestCase {
    private var folder: URL!
    private var cache: TileCache!
    private let tile = TileID(zoom: 7, x: 64, y: 42)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tile-cache-\(UUID().uuidString)")
        cache = TileCache(folder: folder)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testTilesAreFilesInTheMapsLayout() {
        XCTAssertEqual(cache.fileURL(for: tile).path, folder.path + "/7/64/42.png")
    }

    func testAStoredTileIsFreshForAWeekThenStale() throws {
        XCTAssertEqual(cache.state(of: tile), .missing)
        try cache.store(Data("real".utf8), for: tile)
        XCTAssertEqual(cache.state(of: tile), .fresh)
        XCTAssertEqual(cache.state(of: tile, now: Date().addingTimeInterval(6 * 86_400)), .fresh)
        XCTAssertEqual(cache.state(of: tile, now: Date().addingTimeInterval(8 * 86_400)), .stale)
    }

    func testStoringReplacesTheOldFileAndLeavesNoTemporaryFiles() throws {
        try cache.store(Data("old".utf8), for: tile)
        try cache.store(Data("new".utf8), for: tile)
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), Data("new".utf8))
        let folder = cache.fileURL(for: tile).deletingLastPathComponent()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["42.png"])
    }

    func testAStandInGoesWhereNothingIsAndIsAlwaysStale() throws {
        XCTAssertTrue(try cache.storeStandIn(Data("basemap".utf8), for: tile))
        XCTAssertEqual(cache.state(of: tile), .standIn)
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), Data("basemap".utf8))
    }

    func testAStandInNeverReplacesARealTile() throws {
        try cache.store(Data("real".utf8), for: tile)
        XCTAssertFalse(try cache.storeStandIn(Data("basemap".utf8), for: tile))
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), Data("real".utf8))
        XCTAssertEqual(cache.state(of: tile), .fresh)
        let folder = cache.fileURL(for: tile).deletingLastPathComponent()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["42.png"])
    }

    func testARealTileReplacesAStandIn() throws {
        try cache.storeStandIn(Data("basemap".utf8), for: tile)
        try cache.store(Data("real".utf8), for: tile)
        XCTAssertEqual(cache.state(of: tile), .fresh)
        XCTAssertEqual(try Data(contentsOf: cache.fileURL(for: tile)), Data("real".utf8))
    }

    // MARK: - What the server said, kept beside the tiles

    private var recordsFile: URL { folder.appendingPathComponent(TileFreshnessDatabase.fileName) }

    func testWhatTheServerSaidIsKeptBesideTheTileAndDecidesItsFreshness() throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())
        let said = TileFreshness(etag: "\"e1\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT",
                                 freshUntil: now.addingTimeInterval(30 * 86_400))
        try cache.store(Data("real".utf8), for: tile, freshness: said)
        XCTAssertEqual(TileCache(folder: folder).freshness(of: tile), said, "read back by another cache on the folder")
        XCTAssertEqual(cache.state(of: tile, now: now.addingTimeInterval(20 * 86_400)), .fresh)
        XCTAssertEqual(cache.state(of: tile, now: now.addingTimeInterval(31 * 86_400)), .stale)

        let queue = try DatabaseQueue(path: recordsFile.path)
        try queue.read { db in
            XCTAssertEqual(try TileFreshnessDatabase.migrator.appliedIdentifiers(db), ["v1-tile-freshness"])
            XCTAssertEqual(try Row.fetchOne(db, sql: "SELECT zoom, x, y, etag FROM tile"),
                           ["zoom": 7, "x": 64, "y": 42, "etag": "\"e1\""])
        }
    }

    func testATileStoredWithoutWhatTheServerSaidLosesTheOldRecord() throws {
        try cache.store(Data("v1".utf8), for: tile, freshness: TileFreshness(etag: "\"v1\"", freshUntil: .distantFuture))
        try cache.store(Data("v2".utf8), for: tile)
        XCTAssertNil(cache.freshness(of: tile), "the old ETag belongs to the old bytes")
        XCTAssertEqual(cache.state(of: tile, now: Date().addingTimeInterval(8 * 86_400)), .stale, "a week, by the file")
    }

    func testAnOlderVersionsCacheKeepsWorkingAndGainsRecordsWhenTheServerSaysSomething() throws {
        try cache.store(Data("kept before records existed".utf8), for: tile)
        XCTAssertFalse(FileManager.default.fileExists(atPath: recordsFile.path))
        XCTAssertEqual(cache.state(of: tile), .fresh)
        XCTAssertNil(cache.freshness(of: tile))

        let other = TileID(zoom: 7, x: 65, y: 42)
        try cache.store(Data("new".utf8), for: other, freshness: TileFreshness(etag: "\"n\"", freshUntil: .distantFuture))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recordsFile.path), "made by the migration")
        XCTAssertEqual(cache.state(of: tile), .fresh, "the old tile still goes by its file's time")
        XCTAssertEqual(cache.freshness(of: other)?.etag, "\"n\"")
    }

    func testADamagedRecordsFileIsStartedAgain() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 4096).write(to: recordsFile)
        let said = TileFreshness(etag: "\"e\"", freshUntil: Date(timeIntervalSince1970: 2_000_000_000))
        try cache.store(Data("real".utf8), for: tile, freshness: said)
        XCTAssertEqual(cache.freshness(of: tile), said)
    }

    func testAStandInHasNoValidatorsAndIsNeverRenewed() throws {
        try cache.store(Data("real".utf8), for: tile, freshness: TileFreshness(etag: "\"e\"", freshUntil: .distantFuture))
        try FileManager.default.removeItem(at: cache.fileURL(for: tile)) // the file went, its record stayed
        try cache.storeStandIn(Data("basemap".utf8), for: tile)
        XCTAssertEqual(cache.state(of: tile), .standIn)
        XCTAssertNil(cache.freshness(of: tile), "a stand-in is never asked for conditionally")
        XCTAssertFalse(cache.renew(tile, TileFreshness(etag: "\"e\"", freshUntil: .distantFuture)))
    }
}

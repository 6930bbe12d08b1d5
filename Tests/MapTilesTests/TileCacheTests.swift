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
}

import GRDB
import XCTest
@testable import MapTiles

final class BasemapTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/basemap/world.mbtiles")

    private func png(_ marker: UInt8) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, marker])
    }

    /// An MBTiles file with the given tiles, given in XYZ order and stored in TMS order as the spec says.
    private func makeMBTiles(_ tiles: [(TileID, Data)]) throws -> URL {
        let url = folder.appendingPathComponent("test.mbtiles")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                """)
            for (tile, data) in tiles {
                try db.execute(sql: "INSERT INTO tiles VALUES (?, ?, ?, ?)",
                               arguments: [tile.zoom, tile.x, tile.tilesPerSide - 1 - tile.y, data])
            }
        }
        try queue.close()
        return url
    }

    func testTilesAreReadInXYZOrderFromTMSRows() throws {
        let north = TileID(zoom: 1, x: 0, y: 0), south = TileID(zoom: 1, x: 0, y: 1)
        let basemap = try Basemap(contentsOf: makeMBTiles([(north, png(1)), (south, png(2))]))
        XCTAssertEqual(try basemap.tileData(north), png(1))
        XCTAssertEqual(try basemap.tileData(south), png(2))
        XCTAssertNil(try basemap.tileData(TileID(zoom: 1, x: 1, y: 1)))
        XCTAssertEqual(basemap.maxZoom, 1)
    }

    func testDeeperTilesStandInWithTheirAncestorAtTheDeepestLevel() throws {
        let basemap = try Basemap(contentsOf: makeMBTiles([(TileID(zoom: 0, x: 0, y: 0), png(0)),
                                                           (TileID(zoom: 1, x: 1, y: 0), png(1))]))
        XCTAssertEqual(basemap.standInTile(for: TileID(zoom: 0, x: 0, y: 0)), TileID(zoom: 0, x: 0, y: 0))
        XCTAssertEqual(basemap.standInTile(for: TileID(zoom: 6, x: 40, y: 10)), TileID(zoom: 1, x: 1, y: 0))
    }

    func testTheShippedBasemapCoversTheWorldToZoomFive() throws {
        let basemap = try Basemap(contentsOf: Self.shipped)
        XCTAssertEqual(basemap.maxZoom, 5)
        for tile in [TileID(zoom: 0, x: 0, y: 0), TileID(zoom: 2, x: 2, y: 1), TileID(zoom: 5, x: 31, y: 31)] {
            XCTAssertNotNil(try basemap.tileData(tile), "\(tile)")
        }
    }

    func testACorruptFileIsAnErrorNotACrash() throws {
        let url = folder.appendingPathComponent("world.mbtiles")
        try Data(repeating: 0x5A, count: 4096).write(to: url)
        XCTAssertThrowsError(try Basemap(contentsOf: url)) { error in
            guard case .unreadable(let path, _) = error as? Basemap.Problem else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
        }
    }

    func testAMissingOrEmptyFileIsAnError() throws {
        let missing = folder.appendingPathComponent("nowhere.mbtiles")
        XCTAssertThrowsError(try Basemap(contentsOf: missing)) { error in
            XCTAssertEqual(error as? Basemap.Problem, .missing(missing.path))
        }
        let empty = try makeMBTiles([])
        XCTAssertThrowsError(try Basemap(contentsOf: empty)) { error in
            XCTAssertEqual(error as? Basemap.Problem, .empty(empty.path))
        }
    }

    func testATileThatIsNotAPNGIsAnError() throws {
        let basemap = try Basemap(contentsOf: makeMBTiles([(TileID(zoom: 0, x: 0, y: 0), Data("junk".utf8))]))
        XCTAssertThrowsError(try basemap.tileData(TileID(zoom: 0, x: 0, y: 0)))
    }

    func testTheEnvironmentVariableWinsThenTheInstalledCopyThenTheSourceTree() throws {
        let named = URL(fileURLWithPath: "/somewhere/else.mbtiles")
        XCTAssertEqual(Basemap.locate(environment: ["VIRTUAL_TOURIST_BASEMAP": named.path], executable: nil), named)

        // <prefix>/bin/app → <prefix>/share/virtual-tourist/world.mbtiles
        let installed = folder.appendingPathComponent("share/virtual-tourist/world.mbtiles")
        try FileManager.default.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: installed)
        XCTAssertEqual(Basemap.locate(environment: [:], executable: folder.appendingPathComponent("bin/app"))?.path,
                       installed.path)

        // <repo>/.build/x86_64-unknown-linux-gnu/debug/app → <repo>/data/basemap/world.mbtiles
        let tree = folder.appendingPathComponent("data/basemap/world.mbtiles")
        try FileManager.default.createDirectory(at: tree.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: tree)
        let built = folder.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/app")
        XCTAssertEqual(Basemap.locate(environment: [:], executable: built)?.path, tree.path)

        XCTAssertNil(Basemap.locate(environment: [:], executable: URL(fileURLWithPath: "/nonexistent/a/b/c/d/e/app")))
    }
}

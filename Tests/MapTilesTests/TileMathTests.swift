import XCTest
@testable import MapTiles

final class TileMathTests: XCTestCase {
    func testAncestorHalvesTheCoordinatesPerLevel() {
        let tile = TileID(zoom: 10, x: 523, y: 341)
        XCTAssertEqual(tile.ancestor(atZoom: 10), tile)
        XCTAssertEqual(tile.ancestor(atZoom: 9), TileID(zoom: 9, x: 261, y: 170))
        XCTAssertEqual(tile.ancestor(atZoom: 5), TileID(zoom: 5, x: 16, y: 10))
        XCTAssertEqual(tile.ancestor(atZoom: 0), TileID(zoom: 0, x: 0, y: 0))
    }

    func testCoveringAViewListsItsTilesAndOneRingNearestTheCentreFirst() {
        // A 512 × 256 view whose top-left corner is the world pixel (1024, 1024) at zoom 4: tiles x 4…5, y 4.
        let tiles = TileID.covering(originX: 1024, originY: 1024, width: 512, height: 256, zoom: 4)
        XCTAssertEqual(Set(tiles), Set((3...6).flatMap { x in (3...5).map { TileID(zoom: 4, x: x, y: $0) } }))
        XCTAssertEqual(Set(tiles.prefix(2)), [TileID(zoom: 4, x: 4, y: 4), TileID(zoom: 4, x: 5, y: 4)])
    }

    func testCoveringLeavesOutTilesOutsideTheWorld() {
        // Zoom 2 is 1024 pixels wide; a 1280 × 800 view starting left of it and above it.
        let tiles = TileID.covering(originX: -128, originY: -100, width: 1280, height: 800, zoom: 2)
        XCTAssertEqual(tiles.count, 16)
        XCTAssertTrue(tiles.allSatisfy { (0..<4).contains($0.x) && (0..<4).contains($0.y) })
        XCTAssertEqual(TileID.covering(originX: 0, originY: 0, width: 0, height: 100, zoom: 3), [])
    }

    func testURLTemplateFillsTheMapsTokens() {
        let tile = TileID(zoom: 3, x: 5, y: 2)
        XCTAssertEqual(TileURLTemplate("https://t.example/#Z/#X/#Y.png", maxZoom: 19).url(for: tile)?.absoluteString,
                       "https://t.example/3/5/2.png")
        XCTAssertEqual(TileURLTemplate("http://t.example/#S/#X/#Y", maxZoom: 19).url(for: tile)?.absoluteString,
                       "http://t.example/16/5/2")
        // x = 101, y = 010 in binary: quadrants (1,0) (0,1) (1,0) → 1 2 1.
        XCTAssertEqual(TileURLTemplate("http://q.example/#Q0", maxZoom: 19).url(for: tile)?.absoluteString,
                       "http://q.example/121")
        XCTAssertEqual(TileURLTemplate("http://q.example/#Q", maxZoom: 19).url(for: tile)?.absoluteString,
                       "http://q.example/trtr")
    }
}

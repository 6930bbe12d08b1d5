@testable import MapView
import XCTest

final class TileSourceTests: XCTestCase {
    func testWithoutTheVariableTheMapUsesOpenStreetMap() {
        let (source, problem) = TileSource.fromEnvironment([:])
        XCTAssertEqual(source, .openStreetMap)
        XCTAssertNil(problem)
    }

    func testALocalTemplateIsUsedWithItsOwnCacheFolder() throws {
        let template = "http://127.0.0.1:8080/#Z/#X/#Y.png"
        let (source, problem) = TileSource.fromEnvironment([TileSource.environmentVariable: template])
        XCTAssertNil(problem)
        XCTAssertEqual(source.template, template)
        XCTAssertNotEqual(source.cacheFolderName, TileSource.openStreetMap.cacheFolderName)
        XCTAssertEqual(source.cacheFolderName, try TileSource.custom(template: template).get().cacheFolderName,
                       "the cache folder must be the same on every start")
    }

    func testDifferentServersGetDifferentCacheFolders() throws {
        let a = try TileSource.custom(template: "http://127.0.0.1:1/#Z/#X/#Y.png").get()
        let b = try TileSource.custom(template: "http://127.0.0.1:2/#Z/#X/#Y.png").get()
        XCTAssertNotEqual(a.cacheFolderName, b.cacheFolderName)
    }

    func testATemplateWithoutTileTokensFallsBackToOpenStreetMapAndSaysWhy() {
        let (source, problem) = TileSource.fromEnvironment([TileSource.environmentVariable: "http://example.org/tile.png"])
        XCTAssertEqual(source, .openStreetMap)
        XCTAssertEqual(problem, .missingTokens("http://example.org/tile.png"))
        XCTAssertTrue(problem?.description.contains("#X, #Y and #Z") ?? false)
    }

    func testANonHTTPTemplateIsRejected() {
        let (source, problem) = TileSource.fromEnvironment([TileSource.environmentVariable: "ftp://x/#Z/#X/#Y.png"])
        XCTAssertEqual(source, .openStreetMap)
        XCTAssertEqual(problem, .notHTTP("ftp://x/#Z/#X/#Y.png"))
    }

    func testQuadKeyTemplatesAreAccepted() throws {
        XCTAssertNoThrow(try TileSource.custom(template: "https://tiles.example/#Q.png").get())
    }
}

import XCTest
import TouristStore

final class AppPathsTests: XCTestCase {
    func testFoldersFallBackToHomeWhenXDGVariablesAreUnset() {
        let paths = AppPaths(environment: ["HOME": "/home/ada"])

        XCTAssertEqual(paths.dataFolder.path, "/home/ada/.local/share/virtual-tourist")
        XCTAssertEqual(paths.cacheFolder.path, "/home/ada/.cache/virtual-tourist")
        XCTAssertEqual(paths.configFolder.path, "/home/ada/.config/virtual-tourist")
    }

    func testFoldersHonourXDGVariables() {
        let paths = AppPaths(environment: [
            "HOME": "/home/ada",
            "XDG_DATA_HOME": "/data",
            "XDG_CACHE_HOME": "/var/cache/ada",
            "XDG_CONFIG_HOME": "/etc/ada",
        ])

        XCTAssertEqual(paths.dataFolder.path, "/data/virtual-tourist")
        XCTAssertEqual(paths.cacheFolder.path, "/var/cache/ada/virtual-tourist")
        XCTAssertEqual(paths.configFolder.path, "/etc/ada/virtual-tourist")
    }

    func testRelativeAndEmptyXDGVariablesAreIgnored() {
        let paths = AppPaths(environment: [
            "HOME": "/home/ada",
            "XDG_DATA_HOME": "relative/data",
            "XDG_CACHE_HOME": "",
            "XDG_CONFIG_HOME": "./config",
        ])

        XCTAssertEqual(paths.dataFolder.path, "/home/ada/.local/share/virtual-tourist")
        XCTAssertEqual(paths.cacheFolder.path, "/home/ada/.cache/virtual-tourist")
        XCTAssertEqual(paths.configFolder.path, "/home/ada/.config/virtual-tourist")
    }

    func testFilesAreLaidOutInsideTheFolders() {
        let paths = AppPaths(environment: ["XDG_DATA_HOME": "/data", "XDG_CACHE_HOME": "/cache", "HOME": "/home/ada"])

        XCTAssertEqual(paths.databaseURL.path, "/data/virtual-tourist/VirtualTourist.sqlite")
        XCTAssertEqual(paths.photosFolder.path, "/data/virtual-tourist/photos")
        XCTAssertEqual(paths.tileCacheFolder.path, "/cache/virtual-tourist/tiles")
    }

    func testMissingHomeFallsBackToTheUsersHomeFolder() {
        let paths = AppPaths(environment: [:])

        XCTAssertTrue(paths.dataFolder.path.hasPrefix("/"))
        XCTAssertTrue(paths.dataFolder.path.hasSuffix("/.local/share/virtual-tourist"))
    }
}

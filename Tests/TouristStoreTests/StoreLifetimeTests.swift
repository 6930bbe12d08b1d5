import Foundation
import XCTest
@testable import TouristStore

/// The store is freed with its last reference: no retain cycle keeps a database (and its SQLite
/// connections and file handles) alive.
///
/// LeakSanitizer cannot answer this for the XCTest suites on Linux (see Tests/sanitizers/run: every
/// test case object stays alive to the end of the run, so everything a test holds looks leaked),
/// hence an explicit check with weak references.
final class StoreLifetimeTests: XCTestCase {
    func testAnInMemoryStoreIsFreedWithItsLastReference() throws {
        weak var released: AppDatabase?
        do {
            let database = try makeEmptyDatabase()
            let pin = try database.insertPin(latitude: 48.8566, longitude: 2.3522)
            XCTAssertNotNil(pin.id)
            released = database
        }
        XCTAssertNil(released, "an in-memory AppDatabase outlived its last reference")
    }

    func testAStoreOpenedOnDiskIsFreedWithItsLastReference() throws {
        let folder = try makeTemporaryFolder()
        let paths = AppPaths(dataFolder: folder.appendingPathComponent("data"),
                             cacheFolder: folder.appendingPathComponent("cache"),
                             configFolder: folder.appendingPathComponent("config"))
        weak var released: AppDatabase?
        do {
            let database = try AppDatabase.open(paths: paths)
            _ = try database.insertPin(latitude: 37.386, longitude: -122.084)
            released = database
        }
        XCTAssertNil(released, "an AppDatabase opened on disk outlived its last reference")
    }
}

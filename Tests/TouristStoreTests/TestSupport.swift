import Foundation
import XCTest
@testable import TouristStore

struct TestError: Error {}

extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    func makeTemporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("TouristStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// An empty in-memory store whose photo files live in a temporary folder.
    func makeEmptyDatabase() throws -> AppDatabase {
        try AppDatabase.empty(dataFolder: makeTemporaryFolder())
    }

    /// Paths as the app computes them from an environment whose HOME is a temporary folder.
    func makeTemporaryPaths() throws -> AppPaths {
        AppPaths(environment: ["HOME": try makeTemporaryFolder().path])
    }

    /// Writes a small file at `relativePath` under the store's data folder, creating its folders.
    @discardableResult
    func writeFile(_ relativePath: String, in database: AppDatabase) throws -> URL {
        let url = database.photoFileURL(relativePath: relativePath)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: url)
        return url
    }

    /// Inserts a photo whose file exists on disk.
    func insertDownloadedPhoto(
        pinId: Int64, flickrId: String, position: Int = 0, in database: AppDatabase
    ) throws -> (Photo, URL) {
        let path = "photos/\(pinId)/\(flickrId).jpg"
        let url = try writeFile(path, in: database)
        let photo = try database.insertPhoto(
            makePhoto(pinId: pinId, flickrId: flickrId, position: position, filePath: path))
        return (photo, url)
    }

    func makePhoto(pinId: Int64, flickrId: String, position: Int = 0, filePath: String? = nil) -> Photo {
        Photo(
            pinId: pinId,
            flickrId: flickrId,
            remoteURL: "https://live.staticflickr.com/65535/\(flickrId)_secret_q.jpg",
            filePath: filePath,
            ownerId: "owner-\(flickrId)",
            ownerName: "Owner \(flickrId)",
            title: "Photo \(flickrId)",
            position: position)
    }

    func fileExists(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.path)
    }
}

import FlickrClient
import FlickrTestSupport
import Foundation
import Logging
@testable import TouristAlbums
import TouristStore
import XCTest

/// The photo viewer's bigger sizes: stored with the album, fetched once on demand, kept in the
/// cache folder (bounded), nothing half-written, failures told.
final class LargePhotoCacheTests: AlbumServiceTestCase {
    private func makeCache(capacity: Int = 200) -> LargePhotoCache {
        let configuration = FlickrConfiguration(endpoint: server.restURL, searchTimeout: 5, downloadTimeout: 5,
                                                retryCount: 0, appVersion: "test")
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let folder = dataFolder.appendingPathComponent("large-photos")
        let downloader = PhotoDownloader(configuration: configuration,
                                         stagingFolder: LargePhotoCache.stagingFolder(in: folder), logger: quiet)
        return LargePhotoCache(folder: folder, downloader: downloader, capacity: capacity, logger: quiet)
    }

    /// An album fetched from the server, as the app stores it.
    @MainActor
    private func album() async throws -> [Photo] {
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        let deadline = Date().addingTimeInterval(10)
        while try service.activity(ofPin: pinID).isBusy || database.album(ofPin: pinID) == nil, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return try database.photos(ofPin: pinID)
    }

    @MainActor
    func testTheAlbumKeepsEachPhotosBiggerSizeAndLicense() async throws {
        let photos = try await album()
        XCTAssertFalse(photos.isEmpty)
        let withB = photos.filter { $0.largeURL?.hasSuffix("_b.jpg") == true }
        let withZ = photos.filter { $0.largeURL?.hasSuffix("_z.jpg") == true }
        XCTAssertFalse(withB.isEmpty, "url_b is preferred where Flickr has it")
        XCTAssertFalse(withZ.isEmpty, "url_z where it has no url_b")
        XCTAssertTrue(photos.contains { $0.largeURL == nil }, "a photo with neither keeps nil")
        XCTAssertTrue(photos.allSatisfy { $0.license != nil }, "the license id is stored")
    }

    @MainActor
    func testABiggerSizeIsFetchedOnceThenServedFromTheCache() async throws {
        let photos = try await album()
        let photo = try XCTUnwrap(photos.first { $0.largeURL != nil })
        let cache = makeCache()
        let before = try await server.log().images.count

        let first = try await cache.largePhoto(of: photo).get()
        XCTAssertTrue(FileManager.default.fileExists(atPath: first.file.path))
        XCTAssertEqual(first.file.deletingLastPathComponent().lastPathComponent, "large-photos")
        let fetched = try await server.log().images.dropFirst(before)
        XCTAssertEqual(fetched.map(\.path), [URL(string: try XCTUnwrap(photo.largeURL))!.path])

        let second = try await cache.largePhoto(of: photo).get()
        XCTAssertEqual(second.file, first.file)
        let after = try await server.log().images.count
        XCTAssertEqual(after, before + 1, "the second view asks nothing")
        XCTAssertEqual(filesIn(LargePhotoCache.stagingFolder(in: cache.folder)), [], "nothing staged is left")
    }

    @MainActor
    func testAPhotoWithoutABiggerSizeIsToldAndFetchesNothing() async throws {
        let photos = try await album()
        var photo = try XCTUnwrap(photos.first)
        photo.largeURL = nil
        let before = try await server.log().images.count
        guard case .failure = await makeCache().largePhoto(of: photo) else { return XCTFail("no bigger size to fetch") }
        let after = try await server.log().images.count
        XCTAssertEqual(after, before)
    }

    @MainActor
    func testAFailedDownloadLeavesNoFileAndSaysWhy() async throws {
        let photos = try await album()
        let photo = try XCTUnwrap(photos.first { $0.largeURL != nil })
        try await server.inject("image", "html", times: 1)
        let cache = makeCache()
        guard case .failure(let error) = await cache.largePhoto(of: photo) else { return XCTFail("an HTML page is not a photo") }
        XCTAssertFalse(error.userMessage.isEmpty)
        XCTAssertNil(cache.cached(photo))
        XCTAssertEqual(filesIn(LargePhotoCache.stagingFolder(in: cache.folder)), [])
    }

    @MainActor
    func testTheCacheKeepsOnlyTheMostRecentlyUsed() async throws {
        let photos = try await album().filter { $0.largeURL != nil }.prefix(4)
        XCTAssertEqual(photos.count, 4)
        let cache = makeCache(capacity: 2)
        for photo in photos {
            _ = try await cache.largePhoto(of: photo).get()
            try await Task.sleep(nanoseconds: 20_000_000) // distinct modification times
        }
        let kept = filesIn(cache.folder).filter { $0 != "staging" }
        XCTAssertEqual(kept.count, 2)
        XCTAssertNotNil(cache.cached(photos[photos.startIndex + 3]), "the newest stays")
        XCTAssertNil(cache.cached(photos[photos.startIndex]), "the oldest went")
    }

    func testFileNamesAreSafeWhateverTheServerSends() {
        let photo = Photo(pinId: 1, flickrId: "../../etc/passwd", remoteURL: "https://example.com/a.jpg",
                          largeURL: "https://example.com/x/..%2F..%2Fevil name_b.jpg", position: 0)
        let stem = LargePhotoCache.fileStem(of: photo)
        XCTAssertFalse(stem.contains("/"))
        XCTAssertFalse(stem.contains(".."))
        XCTAssertTrue(stem.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }, stem)
    }
}

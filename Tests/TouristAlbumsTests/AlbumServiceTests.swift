import FlickrClient
import FlickrTestSupport
import Foundation
import Logging
@testable import TouristAlbums
import TouristStore
import XCTest

/// The fixture: AlbumService against the real store (in memory, files in a temporary folder), the real Flickr
/// client and downloader, and the Flickr-compatible server on 127.0.0.1.
class AlbumServiceTestCase: XCTestCase {
    var server: FlickrTestServer!
    var dataFolder: URL!
    var database: AppDatabase!

    override func setUpWithError() throws {
        server = try FlickrTestServer()
        dataFolder = try makeTemporaryFolder()
        database = try AppDatabase.empty(dataFolder: dataFolder)
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dataFolder { try? FileManager.default.removeItem(at: dataFolder) }
    }

    @MainActor
    func makeService(apiKey: String? = "test-key",
                     validator: @escaping ImageValidator = ImageValidation.structural) -> AlbumService {
        let configuration = FlickrConfiguration(endpoint: server.restURL, searchTimeout: 5, downloadTimeout: 5,
                                                retryBaseDelay: 0.05, maxRetryDelay: 0.2, appVersion: "test")
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let client = FlickrAPIClient(configuration: configuration, apiKey: { apiKey.flatMap(FlickrAPIKey.init) },
                                     logger: quiet)
        let downloader = PhotoDownloader(configuration: configuration,
                                         stagingFolder: dataFolder.appendingPathComponent("staging"),
                                         validator: validator, logger: quiet)
        return AlbumService(store: database, searcher: client, downloader: downloader, albumSize: 30, logger: quiet)
    }

    func insertPin(latitude: Double = 48.8566, longitude: Double = 2.3522) throws -> Int64 {
        try XCTUnwrap(database.insertPin(latitude: latitude, longitude: longitude).id)
    }

    func filesOnDisk(pinID: Int64) -> [String] {
        let folder = dataFolder.appendingPathComponent("photos/\(pinID)")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Waits until the server has answered every image request it holds, then gives a download that should
    /// have stopped the time to write its file: what is asserted afterwards shows that none did.
    @MainActor
    func waitForEveryImageAnswer(file: StaticString = #filePath, line: UInt = #line) async throws {
        try await server.waitForLog(file: file, line: line) { $0.active_images == 0 }
        // A pause, not a wait: nothing signals a write that does not happen.
        try await Task.sleep(for: .milliseconds(200))
    }

    var stagedFiles: [String] { filesIn(dataFolder.appendingPathComponent("staging")) }

    /// Every file in the photos folder is named by a row, and every row's file is there.
    func assertFilesFollowRows(pinID: Int64, file: StaticString = #filePath, line: UInt = #line) throws {
        let named = Set(try database.photos(ofPin: pinID).compactMap(\.filePath).map { ($0 as NSString).lastPathComponent })
        XCTAssertEqual(Set(filesOnDisk(pinID: pinID)), named, "files on disk are exactly the rows' files", file: file, line: line)
        XCTAssertEqual(stagedFiles, [], "nothing is left in the staging folder", file: file, line: line)
    }
}

/// What the downloads' checks kept, by the path the album named each file with: the size of the bytes each
/// "decoded".
private final class KeptSizes: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var sizes: [String: Int] = [:]
    private var keeps: [String: Int] = [:]
    var value: [String: Int] { lock.withLock { sizes } }
    /// How many times each path was kept.
    var counts: [String: Int] { lock.withLock { keeps } }
    func keep(_ size: Int, as path: String) {
        lock.withLock {
            sizes[path] = size
            keeps[path, default: 0] += 1
        }
    }
}

/// AlbumService's behaviour.
final class AlbumServiceTests: AlbumServiceTestCase {
    /// A service whose downloads' checks "decode" each photo to its byte count, kept in `kept` by the file's path.
    @MainActor
    private func makeSizeDecodingService(keepingIn kept: KeptSizes) -> AlbumService {
        makeService(validator: { data in
            ImageValidation.check(data).map { format in
                ValidatedImage(format: format, keep: { path in kept.keep(data.count, as: path) })
            }
        })
    }

    @MainActor
    func testEnsuringANewPinsAlbumSearchesAndDownloadsEveryPhoto() async throws {
        let service = makeService()
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        let contents = try database.albumContents(ofPin: pinID)
        XCTAssertEqual(contents.album?.page, 1)
        XCTAssertEqual(contents.album?.total, 95)
        XCTAssertFalse(contents.photos.isEmpty)
        XCTAssertLessThanOrEqual(contents.photos.count, 30)
        XCTAssertTrue(contents.photos.allSatisfy { $0.filePath != nil }, "every photo has its file")
        XCTAssertEqual(filesOnDisk(pinID: pinID).count, contents.photos.count, "one file per photo, no partial files")
        XCTAssertEqual(service.activity(ofPin: pinID), .idle)
        XCTAssertTrue(service.isComplete(contents, pinID: pinID))
        let log = try await server.log()
        XCTAssertEqual(log.searches.count, 1)
        XCTAssertEqual(log.images.count, contents.photos.count)
    }

    @MainActor
    func testEachDownloadedPhotosDecodeIsKeptOnceWithThePathItsRowNames() async throws {
        let keeping = KeptSizes()
        let service = makeSizeDecodingService(keepingIn: keeping)
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID) // no page open: the album is fetched behind the map
        await service.waitUntilIdle(pinID: pinID)

        let photos = try database.photos(ofPin: pinID)
        XCTAssertFalse(photos.isEmpty)
        let kept = keeping.value
        XCTAssertEqual(Set(keeping.counts.values), [1], "each photo's decode is kept once")
        XCTAssertEqual(Set(kept.keys), Set(photos.compactMap(\.filePath)), "each photo once its file is in the album")
        for photo in photos {
            let path = try XCTUnwrap(photo.filePath)
            let file = try Data(contentsOf: database.photoFileURL(relativePath: path))
            XCTAssertEqual(kept[path], file.count, "the decode of the very bytes in the file the row names")
        }
    }

    @MainActor
    func testOpeningAnAlbumThatIsOnDiskMakesNoRequest() async throws {
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)
        let requestsBefore = try await server.log().requests.count

        // A fresh service, as after a restart
        let restarted = makeService()
        restarted.ensureAlbum(ofPin: pinID)
        await restarted.waitUntilIdle(pinID: pinID)

        let requestsAfter = try await server.log().requests.count
        XCTAssertEqual(requestsAfter, requestsBefore, "no search and no download for an album already on disk")
    }

    @MainActor
    func testAPlaceWithoutPhotosGetsAnEmptyAlbum() async throws {
        let service = makeService()
        let pinID = try insertPin(latitude: 0, longitude: 0)

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        let contents = try database.albumContents(ofPin: pinID)
        XCTAssertEqual(contents.album?.isEmpty, true)
        XCTAssertEqual(contents.photos, [])
        XCTAssertFalse(service.hasOtherCollections(contents))
    }

    @MainActor
    func testNewCollectionReplacesThePhotosWithADifferentSet() async throws {
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)
        let first = Set(try database.photos(ofPin: pinID).map(\.flickrId))
        let firstFiles = Set(filesOnDisk(pinID: pinID))

        service.newCollection(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        let contents = try database.albumContents(ofPin: pinID)
        let second = Set(contents.photos.map(\.flickrId))
        XCTAssertNotEqual(contents.album?.page, 1, "another page was asked for")
        XCTAssertFalse(second.isEmpty)
        XCTAssertTrue(first.isDisjoint(with: second), "a different set of photos")
        XCTAssertTrue(contents.photos.allSatisfy { $0.filePath != nil })
        XCTAssertTrue(firstFiles.isDisjoint(with: Set(filesOnDisk(pinID: pinID))), "the old files are gone")
        XCTAssertEqual(filesOnDisk(pinID: pinID).count, contents.photos.count)
    }

    @MainActor
    func testAFailedPhotoIsReportedAndARetryBringsIt() async throws {
        try await server.inject("image", "html", times: 1)
        let service = makeService()
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        let failed = service.failedPhotoIDs(ofPin: pinID)
        XCTAssertEqual(failed.count, 1)
        let contents = try database.albumContents(ofPin: pinID)
        XCTAssertTrue(service.isComplete(contents, pinID: pinID), "arrived or failed: complete")
        let failedID = try XCTUnwrap(failed.first)
        XCTAssertNil(contents.photos.first { $0.id == failedID }?.filePath)

        service.retry(photoID: failedID, ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        XCTAssertEqual(service.failedPhotoIDs(ofPin: pinID), [])
        XCTAssertNotNil(try database.photos(ofPin: pinID).first { $0.id == failedID }?.filePath)
    }

    @MainActor
    func testCancellingStopsDownloadsAndLeavesNoPartialFiles() async throws {
        try await server.configure(["image_delay": 0.3])
        let service = makeService()
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID)
        _ = try await server.waitForLog { !$0.images.isEmpty }
        service.cancel(pinID: pinID)
        try await waitForEveryImageAnswer()

        let photos = try database.photos(ofPin: pinID)
        let named = Set(photos.compactMap(\.filePath).map { ($0 as NSString).lastPathComponent })
        let onDisk = filesOnDisk(pinID: pinID)
        XCTAssertTrue(onDisk.allSatisfy { !$0.hasSuffix(".part") }, "no partial files: \(onDisk)")
        XCTAssertEqual(Set(onDisk), named, "every file on disk belongs to a row")
        XCTAssertLessThan(named.count, photos.count, "the cancelled downloads did not all finish")
        XCTAssertEqual(service.activity(ofPin: pinID), .idle)
    }

    @MainActor
    func testWithoutAnAPIKeyTheAlbumSaysHowToGetOneAndSendsNothing() async throws {
        let service = makeService(apiKey: nil)
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        guard case .failed(let problem) = service.activity(ofPin: pinID) else {
            return XCTFail("expected a failure, got \(service.activity(ofPin: pinID))")
        }
        XCTAssertEqual(problem.kind, .missingAPIKey)
        XCTAssertTrue(problem.message.contains("Preferences"))
        XCTAssertNil(try database.album(ofPin: pinID))
        let requests = try await server.log().requests
        XCTAssertEqual(requests.count, 0)
    }

    @MainActor
    func testARejectedKeyIsToldApartFromATemporaryOutage() async throws {
        let service = makeService()
        try await server.inject("search", "stat_fail", times: 1, ["code": 100, "message": "Invalid API Key (Key has invalid format)"])
        let first = try insertPin()
        service.ensureAlbum(ofPin: first)
        await service.waitUntilIdle(pinID: first)
        guard case .failed(let rejected) = service.activity(ofPin: first) else { return XCTFail("expected a failure") }
        XCTAssertEqual(rejected.kind, .invalidAPIKey)

        try await server.inject("search", "stat_fail", times: 1, ["code": 105, "message": "Service currently unavailable"])
        let second = try insertPin(latitude: 10, longitude: 10)
        service.ensureAlbum(ofPin: second)
        await service.waitUntilIdle(pinID: second)
        guard case .failed(let outage) = service.activity(ofPin: second) else { return XCTFail("expected a failure") }
        XCTAssertEqual(outage.kind, .temporary)

        // Try Again works once Flickr is back, and the album is as if nothing happened
        service.ensureAlbum(ofPin: second)
        await service.waitUntilIdle(pinID: second)
        XCTAssertEqual(service.activity(ofPin: second), .idle)
        XCTAssertEqual(try database.album(ofPin: second)?.page, 1)
    }

    @MainActor
    func testInterruptedDownloadsResumeWithoutSearchingAgain() async throws {
        // Given an album whose photos were listed but never downloaded (the app was killed)
        let pinID = try insertPin()
        let photos = (0..<3).map { index in
            Photo(pinId: pinID, flickrId: "9000\(index)", remoteURL: server.imageURL("photo-\(index).jpg").absoluteString,
                  position: index)
        }
        _ = try database.replaceAlbum(Album(pinId: pinID, page: 1, pages: 4, total: 95, perPage: 30), photos: photos)
        let service = makeService()

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        XCTAssertTrue(try database.photos(ofPin: pinID).allSatisfy { $0.filePath != nil })
        let log = try await server.log()
        XCTAssertEqual(log.searches.count, 0)
        XCTAssertEqual(log.images.count, 3)
    }
}

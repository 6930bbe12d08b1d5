import Foundation
import FlickrClient
import Logging
import FlickrTestSupport
import XCTest

/// `PhotoDownloader` against the real local server: files, concurrency, retries (cancellation: PhotoDownloaderTests+Cancellation).
final class PhotoDownloaderTests: XCTestCase {
    var server: FlickrTestServer!
    private var folder: URL!
    private var jpeg: Data!

    override func setUpWithError() throws {
        server = try FlickrTestServer()
        folder = try makeTemporaryFolder()
        jpeg = try sampleJPEG()
    }

    override func tearDownWithError() throws {
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(at: folder)
    }

    private var staging: URL { folder.appendingPathComponent("staging", isDirectory: true) }
    var kept: URL { folder.appendingPathComponent("kept", isDirectory: true) }

    func downloader(_ adjust: (inout FlickrConfiguration) -> Void = { _ in },
                            validator: @escaping ImageValidator = ImageValidation.structural) -> PhotoDownloader {
        var configuration = FlickrConfiguration(endpoint: server.restURL, downloadTimeout: 5, maxConcurrentDownloads: 6,
                                                retryCount: 2, retryBaseDelay: 0.01, maxRetryDelay: 0.05,
                                                appVersion: "2.0")
        adjust(&configuration)
        return PhotoDownloader(configuration: configuration, stagingFolder: staging, validator: validator,
                               logger: Logger(label: "test.downloads") { _ in SwiftLogNoOpLogHandler() })
    }

    func request(_ name: String, id: String? = nil) -> PhotoDownloadRequest {
        PhotoDownloadRequest(photoID: id ?? name, source: server.imageURL("\(name).jpg"))
    }

    /// Downloads and, like an album, keeps each staged file (moved to `kept/<id>.<ext>`) unless `keep` says no.
    func collect(_ downloader: PhotoDownloader, _ requests: [PhotoDownloadRequest],
                         keep: @escaping @Sendable (String) -> Bool = { _ in true })
        async -> [String: Result<URL, FlickrError>] {
        await Self.collect(downloader, requests, into: kept, keep: keep)
    }

    static func collect(_ downloader: PhotoDownloader, _ requests: [PhotoDownloadRequest], into kept: URL,
                                keep: @escaping @Sendable (String) -> Bool = { _ in true })
        async -> [String: Result<URL, FlickrError>] {
        let results = ResultBox()
        try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        await downloader.download(requests) { event in
            results.set(event.photoID, event.result.map { staged in
                let destination = kept.appendingPathComponent("\(event.photoID).\(staged.format.fileExtension)")
                if keep(event.photoID) { try? FileManager.default.moveItem(at: staged.file, to: destination) }
                return destination
            })
        }
        return results.values
    }

    func stagedFiles() -> [String] { filesIn(staging) }

    func error(_ result: Result<URL, FlickrError>?) -> FlickrError? {
        guard case .failure(let error)? = result else { return nil }
        return error
    }

    // MARK: - Success

    func testEveryPhotoOfASearchArrivesAsAFileInItsRealType() async throws {
        let client = FlickrAPIClient(configuration: FlickrConfiguration(endpoint: server.restURL), apiKey: "test-key")
        let page = try await client.searchPhotos(latitude: 48.8566, longitude: 2.3522)
        let requests = page.photos.map { PhotoDownloadRequest(photoID: $0.id, source: $0.imageURL) }

        let results = await collect(downloader(), requests)

        XCTAssertEqual(results.count, 26)
        XCTAssertEqual(Set(results.keys), Set(page.photos.map(\.id)), "each photo reported once")
        for request in requests {
            let file = try XCTUnwrap(results[request.photoID]?.get())
            XCTAssertEqual(file.pathExtension, "jpg")
            XCTAssertEqual(try Data(contentsOf: file), jpeg)
        }
        XCTAssertEqual(stagedFiles(), [], "nothing is left in the staging folder")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 26)
        XCTAssertTrue(log.images.allSatisfy { $0.user_agent == "VirtualTourist/2.0" })
    }

    func testAPNGServedForAJPEGURLIsKeptAsAPNG() async throws {
        try await server.inject("image", "png")

        let results = await collect(downloader(), [request("really-a-png")])

        let file = try XCTUnwrap(results["really-a-png"]?.get())
        XCTAssertEqual(file.pathExtension, "png", "files carry their real type")
        XCTAssertEqual(ImageValidation.format(of: try Data(contentsOf: file)), .png)
    }

    func testAStagedFileTheReceiverDoesNotTakeIsDeleted() async throws {
        let results = await collect(downloader(), (0..<3).map { request("photo\($0)") }, keep: { $0 == "photo1" })

        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(filesIn(kept), ["photo1.jpg"])
        XCTAssertEqual(stagedFiles(), [], "what the album did not take is gone")
    }

    func testConcurrencyNeverExceedsTheLimit() async throws {
        try await server.configure(["image_delay": 0.08])
        let requests = (0..<12).map { request("photo\($0)") }

        let results = await collect(downloader { $0.maxConcurrentDownloads = 3 }, requests)

        XCTAssertEqual(results.values.filter { (try? $0.get()) != nil }.count, 12)
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 12)
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 3)
        XCTAssertGreaterThanOrEqual(log.max_concurrent_images, 2, "downloads do overlap")
    }

    func testDefaultLimitIsSix() async throws {
        try await server.configure(["image_delay": 0.08])
        _ = await collect(downloader(), (0..<14).map { request("photo\($0)") })

        let log = try await server.log()
        XCTAssertEqual(FlickrConfiguration().maxConcurrentDownloads, 6)
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 6)
        XCTAssertGreaterThanOrEqual(log.max_concurrent_images, 4)
    }

    func testLimitIsSharedAcrossBatches() async throws {
        try await server.configure(["image_delay": 0.08])
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }

        let kept = self.kept
        let batchA = (0..<4).map { request("a\($0)") }, batchB = (0..<4).map { request("b\($0)") }
        async let first = Self.collect(downloader, batchA, into: kept)
        async let second = Self.collect(downloader, batchB, into: kept)
        let counts = await [first.count, second.count]

        XCTAssertEqual(counts, [4, 4])
        let log = try await server.log()
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 2)
    }

    // MARK: - Bodies that must not be kept

    func testABodyCutBeforeItsContentLengthIsRetriedAndLeavesNoFile() async throws {
        try await server.inject("image", "truncate")

        let results = await collect(downloader(), [request("cut")])

        let failure = try XCTUnwrap(error(results["cut"]))
        // curl reports the cut as a lost connection; a short body without an error would be incompleteDownload.
        XCTAssertTrue([.connectionLost, .incompleteDownload(expected: Int64(jpeg.count), received: Int64(jpeg.count / 2))]
            .contains(failure), "\(failure)")
        XCTAssertTrue(failure.isTransient)
        XCTAssertEqual(stagedFiles(), [], "no file and no .part left")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 3, "a cut connection is transient: retried twice")
    }

    func testAJPEGWithoutItsEndMarkerIsRefusedEvenWithAMatchingLength() async throws {
        try await server.inject("image", "cut_short")

        let results = await collect(downloader(), [request("short")])

        XCTAssertEqual(error(results["short"]), .unusableImage(.truncated))
        XCTAssertEqual(stagedFiles(), [])
        XCTAssertEqual(filesIn(kept), [])
    }

    func testNonImageBodyIsRejectedWithoutRetry() async throws {
        try await server.inject("image", "html")

        let results = await collect(downloader(), [request("page")])

        XCTAssertEqual(error(results["page"]), .notAnImage)
        XCTAssertEqual(stagedFiles(), [])
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 1)
    }

    func testABodyOverTheByteLimitIsRefusedFromItsHeaders() async throws {
        try await server.inject("image", "huge", ["length": 60_000_000])
        let started = Date()

        let results = await collect(downloader { $0.maxPhotoBytes = 1 << 20 }, [request("huge")])

        XCTAssertEqual(error(results["huge"]), .photoTooLarge(limit: 1 << 20))
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "refused without reading 60 MB")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 1, "not retried")
    }

    func testCallerValidatorDecides() async throws {
        let seen = LogRecorder()
        let downloader = downloader(validator: { data in
            seen.append("\(data.count)")
            return .failure(.unusableImage(.damaged))
        })

        let results = await collect(downloader, [request("rejected")])

        XCTAssertEqual(error(results["rejected"]), .unusableImage(.damaged))
        XCTAssertEqual(seen.lines, ["\(jpeg.count)"], "the validator saw the whole body")
        XCTAssertEqual(stagedFiles(), [])
    }

    func testTheValidatorsKeepTravelsWithTheStagedFile() async throws {
        let kept = KeptPaths()
        let downloader = downloader(validator: { data in
            ImageValidation.check(data).map { ValidatedImage(format: $0, keep: { path in kept.add(path) }) }
        })

        await downloader.download([request("kept")]) { event in
            if case .success(let staged) = event.result { staged.keep?("photos/1/kept.jpg") }
        }

        XCTAssertEqual(kept.value, ["photos/1/kept.jpg"],
                       "the photo is decoded once: its owner keeps the validator's decode under the file's path")
    }

    // MARK: - Servers that stall or never answer

    func testAServerThatNeverAnswersStallsOutAndIsRetriedOnce() async throws {
        try await server.inject("image", "hang")
        let started = Date()

        let results = await collect(downloader { $0.stallTimeout = 0.6; $0.downloadTimeout = 10 }, [request("silent")])

        XCTAssertEqual(error(results["silent"]), .stalled)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 1.1, "two stalls of 0.6 s")
        XCTAssertLessThan(elapsed, 4, "a stall is retried once, not three times")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 2)
    }

    func testAServerThatStopsMidBodyStallsOut() async throws {
        try await server.inject("image", "stall", ["after_bytes": 100])

        let results = await collect(downloader { $0.stallTimeout = 0.5; $0.retryCount = 0 }, [request("stuck")])

        XCTAssertEqual(error(results["stuck"]), .stalled)
        XCTAssertEqual(stagedFiles(), [])
    }

    func testThePhotoDeadlineBoundsEveryAttempt() async throws {
        try await server.inject("image", "hang")
        let started = Date()

        let results = await collect(downloader { $0.stallTimeout = 30; $0.downloadTimeout = 1 }, [request("late")])

        XCTAssertEqual(error(results["late"]), .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "the deadline holds across retries")
    }

    func testAPhotoWaitingForAConnectionIsNeitherStalledNorLate() async throws {
        // One connection, 0.3 s a photo: the sixth waits 1.5 s for it, past both limits, but each photo
        // takes 0.3 s on the wire, and only the wire counts.
        try await server.configure(["image_delay": 0.3])
        let adjust: (inout FlickrConfiguration) -> Void = {
            $0.maxConcurrentDownloads = 1
            $0.stallTimeout = 0.8
            $0.downloadTimeout = 1.2
            $0.retryCount = 0
        }

        let results = await collect(downloader(adjust), (0..<6).map { request("queued\($0)") })

        XCTAssertEqual(results.values.filter { (try? $0.get()) != nil }.count, 6,
                       "\(results.values.compactMap { error($0) })")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 6, "each photo was asked for once")
        XCTAssertEqual(log.max_concurrent_images, 1)
    }

    // MARK: - Retries

    func testTooManyRequestsIsRetriedUntilItSucceeds() async throws {
        try await server.inject("image", "http_status", times: 2, ["status": 429, "retry_after": "0"])

        let results = await collect(downloader(), [request("busy")])

        XCTAssertNotNil(try results["busy"]?.get())
        let log = try await server.log()
        XCTAssertEqual(log.images.map(\.status), [429, 429, 200])
    }

    func testServerErrorsAreRetriedThenReported() async throws {
        try await server.inject("image", "http_status", ["status": 503])

        let results = await collect(downloader(), [request("down")])

        XCTAssertEqual(error(results["down"]), .httpStatus(503))
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 3, "first attempt and two retries")
        XCTAssertEqual(stagedFiles(), [])
    }

    func testNotFoundIsNotRetried() async throws {
        let results = await collect(downloader(), [request("missing-photo")])

        XCTAssertEqual(error(results["missing-photo"]), .httpStatus(404))
        XCTAssertEqual(error(results["missing-photo"])?.isTransient, false)
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 1)
    }

    func testAPhotoThatMovedIsFetchedFromItsNewPlace() async throws {
        try await server.inject("image", "redirect", times: 1, ["match": "old-farm", "location": "/images/moved.jpg"])

        let results = await collect(downloader(), [request("old-farm", id: "p")])

        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(try? results["p"]?.get())), jpeg)
        let log = try await server.log()
        XCTAssertEqual(log.images.map(\.path), ["/images/old-farm.jpg", "/images/moved.jpg"])
    }

    func testARedirectToPlainHTTPElsewhereIsRefused() async throws {
        try await server.inject("image", "redirect", ["location": "http://farm66.staticflickr.example/a.jpg"])

        let results = await collect(downloader(), [request("p")])

        XCTAssertEqual(error(results["p"]), .insecureEndpoint(host: "farm66.staticflickr.example"))
    }

    func testInsecureImageURLIsRefused() async throws {
        let request = PhotoDownloadRequest(photoID: "x", source: URL(string: "http://example.com/x.jpg")!)

        let results = await collect(downloader(), [request])

        XCTAssertEqual(error(results["x"]), .insecureEndpoint(host: "example.com"))
    }
}

/// Results gathered from concurrent receivers.
private final class ResultBox: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var results: [String: Result<URL, FlickrError>] = [:]

    func set(_ id: String, _ result: Result<URL, FlickrError>) {
        lock.lock()
        results[id] = result
        lock.unlock()
    }

    var values: [String: Result<URL, FlickrError>] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// The paths a download's decode was kept under, read after it finished.
private final class KeptPaths: @unchecked Sendable {
    // @unchecked: added to from the download's callback, read after `download` returned; the lock orders them.
    private let lock = NSLock()
    private var paths: [String] = []
    var value: [String] { lock.withLock { paths } }
    func add(_ path: String) { lock.withLock { paths.append(path) } }
}

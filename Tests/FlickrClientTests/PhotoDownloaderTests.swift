import Foundation
import FlickrClient
import Logging
import FlickrTestSupport
import XCTest

/// `PhotoDownloader` against the real local server: files, concurrency, retries, cancellation.
final class PhotoDownloaderTests: XCTestCase {
    private var server: FlickrTestServer!
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

    private func downloader(_ adjust: (inout FlickrConfiguration) -> Void = { _ in },
                            validator: @escaping ImageValidator = ImageValidation.hasImageSignature) -> PhotoDownloader {
        var configuration = FlickrConfiguration(endpoint: server.restURL, downloadTimeout: 5, maxConcurrentDownloads: 6,
                                                retryCount: 2, retryBaseDelay: 0.01, maxRetryDelay: 0.05,
                                                appVersion: "2.0")
        adjust(&configuration)
        return PhotoDownloader(configuration: configuration, validator: validator,
                               logger: Logger(label: "test.downloads") { _ in SwiftLogNoOpLogHandler() })
    }

    private func request(_ name: String, id: String? = nil) -> PhotoDownloadRequest {
        PhotoDownloadRequest(photoID: id ?? name, source: server.imageURL("\(name).jpg"),
                             destination: folder.appendingPathComponent("\(id ?? name).jpg"))
    }

    private func collect(_ stream: AsyncStream<PhotoDownloadEvent>) async -> [String: Result<URL, FlickrError>] {
        var results: [String: Result<URL, FlickrError>] = [:]
        for await event in stream { results[event.photoID] = event.result }
        return results
    }

    private func error(_ result: Result<URL, FlickrError>?) -> FlickrError? {
        guard case .failure(let error)? = result else { return nil }
        return error
    }

    // MARK: - Success

    func testEveryPhotoOfASearchArrivesAsAFile() async throws {
        let client = FlickrAPIClient(configuration: FlickrConfiguration(endpoint: server.restURL), apiKey: "test-key")
        let page = try await client.searchPhotos(latitude: 48.8566, longitude: 2.3522)
        let requests = page.photos.map {
            PhotoDownloadRequest(photoID: $0.id, source: $0.imageURL, destination: folder.appendingPathComponent("\($0.id).jpg"))
        }

        var order: [String] = []
        var results: [String: Result<URL, FlickrError>] = [:]
        for await event in downloader().download(requests, group: "pin-1") {
            order.append(event.photoID)
            results[event.photoID] = event.result
        }

        XCTAssertEqual(results.count, 26)
        XCTAssertEqual(Set(order), Set(page.photos.map(\.id)), "each photo reported once")
        XCTAssertEqual(order.count, 26)
        for request in requests {
            XCTAssertEqual(try results[request.photoID]?.get(), request.destination)
            XCTAssertEqual(try Data(contentsOf: request.destination), jpeg)
        }
        XCTAssertEqual(filesIn(folder).count, 26)
        XCTAssertFalse(filesIn(folder).contains { $0.hasSuffix(".part") })
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 26)
        XCTAssertTrue(log.images.allSatisfy { $0.user_agent == "VirtualTourist/2.0" })
    }

    func testDownloadsCreateTheDestinationFolder() async throws {
        let nested = folder.appendingPathComponent("pins/7", isDirectory: true)
        let request = PhotoDownloadRequest(photoID: "1", source: server.imageURL("a.jpg"),
                                           destination: nested.appendingPathComponent("1.jpg"))

        let file = try await downloader().download(request)

        XCTAssertEqual(try Data(contentsOf: file), jpeg)
    }

    func testConcurrencyNeverExceedsTheLimit() async throws {
        try await server.configure(["image_delay": 0.08])
        let requests = (0..<12).map { request("photo\($0)") }

        let results = await collect(downloader { $0.maxConcurrentDownloads = 3 }.download(requests, group: "pin"))

        XCTAssertEqual(results.values.filter { (try? $0.get()) != nil }.count, 12)
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 12)
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 3)
        XCTAssertGreaterThanOrEqual(log.max_concurrent_images, 2, "downloads do overlap")
    }

    func testDefaultLimitIsSix() async throws {
        try await server.configure(["image_delay": 0.08])
        let requests = (0..<14).map { request("photo\($0)") }

        _ = await collect(downloader().download(requests, group: "pin"))

        let log = try await server.log()
        XCTAssertEqual(FlickrConfiguration().maxConcurrentDownloads, 6)
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 6)
        XCTAssertGreaterThanOrEqual(log.max_concurrent_images, 4)
    }

    func testLimitIsSharedAcrossGroups() async throws {
        try await server.configure(["image_delay": 0.08])
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }

        // Both batches start at once; collecting them one after the other doesn't serialise them.
        let first = downloader.download((0..<4).map { request("a\($0)") }, group: "pin-1")
        let second = downloader.download((0..<4).map { request("b\($0)") }, group: "pin-2")
        let results = [await collect(first), await collect(second)]

        XCTAssertEqual(results.map { $0.count }, [4, 4])
        let log = try await server.log()
        XCTAssertLessThanOrEqual(log.max_concurrent_images, 2)
    }

    // MARK: - Failures leave nothing behind

    func testTruncatedBodyFailsAndLeavesNoFile() async throws {
        try await server.inject("image", "truncate")

        let results = await collect(downloader().download([request("cut")], group: "pin"))

        let failure = try XCTUnwrap(error(results["cut"]))
        // curl reports the cut as a lost connection; a short body without an error would be incompleteDownload.
        XCTAssertTrue([.connectionLost, .incompleteDownload(expected: Int64(jpeg.count), received: Int64(jpeg.count / 2))]
            .contains(failure), "\(failure)")
        XCTAssertTrue(failure.isTransient)
        XCTAssertEqual(filesIn(folder), [], "no file and no .part left")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 3, "a cut connection is transient: retried twice")
    }

    func testNonImageBodyIsRejectedWithoutRetry() async throws {
        try await server.inject("image", "html")

        let results = await collect(downloader().download([request("page")], group: "pin"))

        XCTAssertEqual(error(results["page"]), .notAnImage)
        XCTAssertEqual(filesIn(folder), [])
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 1)
    }

    func testCallerValidatorDecides() async throws {
        let seen = LogRecorder()
        let downloader = downloader(validator: { data in
            seen.append("\(data.count)")
            return false
        })

        let results = await collect(downloader.download([request("rejected")], group: "pin"))

        XCTAssertEqual(error(results["rejected"]), .notAnImage)
        XCTAssertEqual(seen.lines, ["\(jpeg.count)"], "the validator saw the whole body")
        XCTAssertEqual(filesIn(folder), [])
    }

    func testExistingFileIsKeptWhenADownloadFails() async throws {
        let destination = folder.appendingPathComponent("keep.jpg")
        try Data("old".utf8).write(to: destination)
        try await server.inject("image", "html")

        let results = await collect(downloader().download(
            [PhotoDownloadRequest(photoID: "keep", source: server.imageURL("keep.jpg"), destination: destination)],
            group: "pin"))

        XCTAssertEqual(error(results["keep"]), .notAnImage)
        XCTAssertEqual(try Data(contentsOf: destination), Data("old".utf8))
        XCTAssertEqual(filesIn(folder), ["keep.jpg"])
    }

    // MARK: - Retries

    func testTooManyRequestsIsRetriedUntilItSucceeds() async throws {
        try await server.inject("image", "http_status", times: 2, ["status": 429, "retry_after": "0"])

        let results = await collect(downloader().download([request("busy")], group: "pin"))

        XCTAssertEqual(try results["busy"]?.get(), folder.appendingPathComponent("busy.jpg"))
        let log = try await server.log()
        XCTAssertEqual(log.images.map(\.status), [429, 429, 200])
    }

    func testServerErrorsAreRetriedThenReported() async throws {
        try await server.inject("image", "http_status", ["status": 503])

        let results = await collect(downloader().download([request("down")], group: "pin"))

        XCTAssertEqual(error(results["down"]), .httpStatus(503))
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 3, "first attempt and two retries")
        XCTAssertEqual(filesIn(folder), [])
    }

    func testNotFoundIsNotRetried() async throws {
        let results = await collect(downloader().download([request("missing-photo")], group: "pin"))

        XCTAssertEqual(error(results["missing-photo"]), .httpStatus(404))
        XCTAssertEqual(error(results["missing-photo"])?.isTransient, false)
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 1)
    }

    func testSlowImageTimesOutAndIsRetried() async throws {
        try await server.inject("image", "delay", times: 1, ["seconds": 3])

        let results = await collect(downloader { $0.downloadTimeout = 0.4 }.download([request("slow")], group: "pin"))

        XCTAssertNotNil(try results["slow"]?.get(), "the retry got through")
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 2)
    }

    func testInsecureImageURLIsRefused() async throws {
        let request = PhotoDownloadRequest(photoID: "x", source: URL(string: "http://example.com/x.jpg")!,
                                           destination: folder.appendingPathComponent("x.jpg"))

        let results = await collect(downloader().download([request], group: "pin"))

        XCTAssertEqual(error(results["x"]), .insecureEndpoint(host: "example.com"))
        XCTAssertEqual(filesIn(folder), [])
    }

    // MARK: - Cancellation

    func testCancellingAGroupStopsItsRequestsAndLeavesNoFiles() async throws {
        try await server.configure(["image_delay": 5])
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }
        let requests = (0..<8).map { request("photo\($0)") }
        let stream = downloader.download(requests, group: "pin-1")
        try await server.waitForLog { $0.active_images == 2 }
        let started = Date()

        downloader.cancel(group: "pin-1")
        let results = await collect(stream)

        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "in-flight requests were cancelled, not awaited")
        XCTAssertEqual(results.count, 8, "every photo is reported")
        XCTAssertTrue(results.values.allSatisfy { error($0) == .cancelled })
        XCTAssertEqual(filesIn(folder), [])
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 2, "queued photos were never requested")
    }

    func testCancellingOneGroupLeavesOthersRunning() async throws {
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }
        try await server.inject("image", "delay", ["seconds": 5, "match": "slow"])
        let doomed = downloader.download((0..<3).map { request("slow\($0)") }, group: "pin-1")
        try await server.waitForLog { $0.active_images == 2 }

        downloader.cancel(group: "pin-1")
        let kept = await collect(downloader.download((0..<3).map { request("fast\($0)") }, group: "pin-2"))
        let cancelled = await collect(doomed)

        XCTAssertTrue(kept.values.allSatisfy { (try? $0.get()) != nil })
        XCTAssertTrue(cancelled.values.allSatisfy { error($0) == .cancelled })
        XCTAssertEqual(filesIn(folder), ["fast0.jpg", "fast1.jpg", "fast2.jpg"])
    }

    func testCancellingTheTaskCancelsItsDownload() async throws {
        try await server.configure(["image_delay": 5])
        let downloader = downloader()
        let request = request("slow")
        let task = Task { () async throws -> URL in try await downloader.download(request) }
        try await server.waitForLog { $0.active_images == 1 }
        let started = Date()

        task.cancel()
        let result = await task.result

        XCTAssertEqual(result.failure as? FlickrError, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertEqual(filesIn(folder), [])
    }

    func testGroupCanStartAgainAfterCancel() async throws {
        let downloader = downloader()
        downloader.cancel(group: "pin-1")

        let results = await collect(downloader.download([request("again")], group: "pin-1"))

        XCTAssertNotNil(try results["again"]?.get())
    }
}

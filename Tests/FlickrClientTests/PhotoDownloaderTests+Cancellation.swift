import FlickrClient
import FlickrTestSupport
import Foundation
import XCTest

/// Cancelling downloads: what was asked for is reported cancelled, nothing is left behind, other batches go on.
extension PhotoDownloaderTests {
    func testCancellingTheCallerStopsEveryRequestAndLeavesNoFiles() async throws {
        try await server.configure(["image_delay": 5])
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }
        let requests = (0..<8).map { request("photo\($0)") }
        let kept = self.kept
        let task = Task.detached { await PhotoDownloaderTests.collect(downloader, requests, into: kept, keep: { _ in true }) }
        try await server.waitForLog { $0.active_images == 2 }
        let started = Date()

        task.cancel()
        let results = await task.value

        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "in-flight requests were cancelled, not awaited")
        XCTAssertEqual(results.count, 8, "every photo is reported")
        XCTAssertTrue(results.values.allSatisfy { error($0) == .cancelled })
        XCTAssertEqual(stagedFiles(), [])
        let log = try await server.log()
        XCTAssertEqual(log.images.count, 2, "queued photos were never requested")
    }

    func testCancellingOneBatchLeavesOthersRunning() async throws {
        let downloader = downloader { $0.maxConcurrentDownloads = 2 }
        try await server.inject("image", "delay", ["seconds": 5, "match": "slow"])
        let folder = self.kept
        let slow = (0..<3).map { request("slow\($0)") }
        let doomed = Task.detached { await PhotoDownloaderTests.collect(downloader, slow, into: folder, keep: { _ in true }) }
        try await server.waitForLog { $0.active_images == 2 }

        doomed.cancel()
        let fast = await collect(downloader, (0..<3).map { request("fast\($0)") })
        let cancelled = await doomed.value

        XCTAssertTrue(fast.values.allSatisfy { (try? $0.get()) != nil })
        XCTAssertTrue(cancelled.values.allSatisfy { error($0) == .cancelled })
        XCTAssertEqual(filesIn(self.kept), ["fast0.jpg", "fast1.jpg", "fast2.jpg"])
    }
}

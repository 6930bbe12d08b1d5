import FlickrTestSupport
import Foundation
import WebAccess
import XCTest

/// `WebClient` against the Flickr test server's images and their faults, over real HTTP on loopback.
final class WebClientTests: XCTestCase {
    private var server: FlickrTestServer!
    private let web = WebClient()

    override func setUpWithError() throws {
        server = try FlickrTestServer()
    }

    override func tearDown() {
        server?.stop()
        web.shutdown()
    }

    /// What `get` threw, as a `WebFailure`, and how long it took (failing if it succeeded).
    private func failure(_ url: URL, timeout: TimeInterval, maxBytes: Int = 16 << 20) async -> (WebFailure?, TimeInterval) {
        let started = Date()
        do {
            let response = try await web.get(url, headers: [("User-Agent", "WebAccessTests/1")], timeout: timeout,
                                             maxBytes: maxBytes)
            XCTFail("expected a failure, got HTTP \(response.status) with \(response.body.count) bytes")
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (WebFailure(error), Date().timeIntervalSince(started))
        }
    }

    func testAnImageArrivesWholeWithItsStatusAndHeaders() async throws {
        let response = try await web.get(server.imageURL("a.jpg"), headers: [("User-Agent", "WebAccessTests/1")],
                                         timeout: 5)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(Array(response.body.prefix(3)), [0xFF, 0xD8, 0xFF])
        XCTAssertEqual(response.header("content-length").flatMap(Int.init), response.body.count)
    }

    func testABodyThatStallsEndsAtTheDeadlineNotWhenTheServerGivesUp() async throws {
        try await server.inject("image", "stall", ["after_bytes": 100])
        let (failure, took) = await failure(server.imageURL("a.jpg"), timeout: 1)
        XCTAssertEqual(failure, .timedOut)
        XCTAssertLessThan(took, 3, "the deadline covers the body, not only the headers")
    }

    func testABodyOverTheLimitIsTooLarge() async throws {
        try await server.inject("image", "huge", ["length": 5_000_000])
        let (failure, _) = await failure(server.imageURL("a.jpg"), timeout: 10, maxBytes: 1_000_000)
        XCTAssertEqual(failure, .tooLarge)
    }

    func testARefusedPortFailsAtOnceAsCannotConnect() async throws {
        let url = URL(string: "http://127.0.0.1:\(try closedLocalPort())/x.png")!
        let (failure, took) = await failure(url, timeout: 10)
        XCTAssertEqual(failure, .cannotConnect)
        XCTAssertTrue(failure?.isConnectivityProblem == true)
        XCTAssertLessThan(took, 2, "a refused connection is not retried until the deadline")
    }

    func testAStartedTransferEndsWithTheBodyOrAsCancelled() async throws {
        let whole = await withCheckedContinuation { continuation in
            _ = web.start(server.imageURL("a.jpg"), headers: [], timeout: 5) { continuation.resume(returning: $0) }
        }
        XCTAssertEqual(try whole.get().status, 200)

        try await server.inject("image", "hang")
        let cancelled = await withCheckedContinuation { continuation in
            let transfer = web.start(server.imageURL("b.jpg"), headers: [], timeout: 10) { continuation.resume(returning: $0) }
            let server = server!
            Task { // cancelled once the server holds the request: mid-transfer
                _ = try? await server.waitForLog { $0.images.count == 2 }
                transfer?.cancel()
            }
        }
        guard case .failure(let failure) = cancelled else { return XCTFail("\(cancelled)") }
        XCTAssertEqual(failure, .cancelled)
    }
}

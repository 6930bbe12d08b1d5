import NIOCore
@testable import OnTheMapServer
import XCTest

/// The cache behind both list paths: after a write the new lists are encoded while the previous ones are still
/// served, so readers never wait for a write.
final class LocationListCacheTests: XCTestCase {
    private let hot = LocationQuery(limit: 100)
    private let mine = LocationQuery(limit: 10, uniqueKey: "me")

    func testThePreviousBodyStaysReadyWhileANewerOneIsComputed() async throws {
        let cache = LocationListCache()
        _ = try await cache.body(for: hot, revision: 1) { ByteBuffer(string: "one") }
        let gate = Gate()
        let hot = hot
        let newer = Task {
            try await cache.body(for: hot, revision: 2, asked: false) {
                await gate.wait()
                return ByteBuffer(string: "two")
            }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while await !gate.isHolding, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        let computing = await gate.isHolding
        XCTAssertTrue(computing, "the newer body is being computed")
        XCTAssertEqual(cache.readyBody(for: hot, revision: 1), ByteBuffer(string: "one"), "still served meanwhile")
        XCTAssertNil(cache.readyBody(for: hot, revision: 2), "not ready before it is computed")
        await gate.open()
        _ = try await newer.value
        XCTAssertEqual(cache.readyBody(for: hot, revision: 2), ByteBuffer(string: "two"))
        XCTAssertEqual(cache.readyBody(for: hot, revision: 1), ByteBuffer(string: "two"), "newer serves older asks")
    }

    func testAFailedComputationKeepsThePreviousBodyAndIsRetried() async throws {
        let cache = LocationListCache()
        _ = try await cache.body(for: hot, revision: 1) { ByteBuffer(string: "one") }
        do {
            _ = try await cache.body(for: hot, revision: 2) { throw CancellationError() }
            XCTFail("the failure reaches the caller")
        } catch is CancellationError {}
        XCTAssertEqual(cache.readyBody(for: hot, revision: 1), ByteBuffer(string: "one"))
        let retried = try await cache.body(for: hot, revision: 2) { ByteBuffer(string: "two") }
        XCTAssertEqual(retried, ByteBuffer(string: "two"))
    }

    func testOnlyQueriesAskedForSinceTheLastRefreshAreRefreshed() async throws {
        let cache = LocationListCache()
        _ = try await cache.body(for: hot, revision: 1) { ByteBuffer(string: "hot") }
        _ = try await cache.body(for: mine, revision: 1) { ByteBuffer(string: "mine") }
        XCTAssertEqual(Set(cache.takeAskedQueries(limit: 8)), [hot, mine])
        XCTAssertEqual(cache.takeAskedQueries(limit: 8), [], "taking clears the marks")

        // Refreshed ahead of demand: not asked for until a request reads it.
        _ = try await cache.body(for: hot, revision: 2, asked: false) { ByteBuffer(string: "hot 2") }
        _ = try await cache.body(for: mine, revision: 2, asked: false) { ByteBuffer(string: "mine 2") }
        XCTAssertEqual(cache.takeAskedQueries(limit: 8), [])
        XCTAssertNotNil(cache.readyBody(for: hot, revision: 2))
        XCTAssertEqual(cache.takeAskedQueries(limit: 8), [hot], "only what was read since")
        XCTAssertEqual(cache.takeAskedQueries(limit: 1).count, 0)
    }

    func testTheRefreshLimitIsHonoured() async throws {
        let cache = LocationListCache()
        for skip in 0..<20 {
            _ = try await cache.body(for: LocationQuery(skip: skip), revision: 1) { ByteBuffer(string: "\(skip)") }
        }
        XCTAssertEqual(cache.takeAskedQueries(limit: 8).count, 8)
        XCTAssertEqual(cache.takeAskedQueries(limit: 100).count, 12)
    }
}

/// Holds a computation until the test lets it finish.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Whether something waits at the gate (a computation has started and is held).
    var isHolding: Bool { !waiters.isEmpty }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

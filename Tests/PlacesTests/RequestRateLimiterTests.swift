import Places
import XCTest

final class RequestRateLimiterTests: XCTestCase {
    func testCallersAreLetThroughOneIntervalApart() async {
        // Lower bounds are exact (the limiter's own instants); upper bounds leave half an interval for a
        // loaded machine (sanitizer runs on two cores) while still failing a limiter that always waits.
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        var releases: [ContinuousClock.Instant] = []
        for _ in 0..<4 { releases.append(await limiter.wait()) }
        XCTAssertLessThan(releases[0] - start, .milliseconds(150), "the first caller goes at once")
        for (earlier, later) in zip(releases, releases.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(300))
        }
    }

    func testConcurrentCallersAreSpacedToo() async {
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(50))
        let releases = await withTaskGroup(of: ContinuousClock.Instant.self) { group in
            for _ in 0..<5 { group.addTask { await limiter.wait() } }
            return await group.reduce(into: []) { $0.append($1) }
        }.sorted()
        for (earlier, later) in zip(releases, releases.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(50))
        }
    }

    func testAfterAQuietSpellTheNextCallerGoesAtOnce() async throws {
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(300))
        await limiter.wait()
        try await Task.sleep(for: .milliseconds(350))
        let clock = ContinuousClock()
        let start = clock.now
        await limiter.wait()
        XCTAssertLessThan(clock.now - start, .milliseconds(150), "a limiter that always waited would take 300 ms")
    }

    func testACancelledCallerStopsWaiting() async throws {
        let limiter = RequestRateLimiter(minimumInterval: .seconds(5))
        await limiter.wait()
        let clock = ContinuousClock()
        let start = clock.now
        let waiter = Task { await limiter.wait() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        _ = await waiter.value
        XCTAssertLessThan(clock.now - start, .seconds(2))
    }
}

import Places
import XCTest

/// The limiter on a clock the test moves by hand: every instant is exact, and no assertion depends on how busy
/// the machine is. Real time bounds only how long a broken limiter may keep a test waiting.
final class RequestRateLimiterTests: XCTestCase {
    func testCallersAreLetThroughOneIntervalApart() async {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(300), clock: clock)
        let done = expectation(description: "four callers let through")
        let callers = Task {
            var releases: [Duration] = []
            for _ in 0..<4 { releases.append(await limiter.wait()) }
            done.fulfill()
            return releases
        }
        for _ in 1..<4 {
            await clock.waitUntilSleeping(1)
            clock.advance(by: .milliseconds(299))
            XCTAssertEqual(clock.sleeping, 1, "not let through a moment early")
            clock.advance(by: .milliseconds(1))
        }
        await fulfillment(of: [done], timeout: 5)
        callers.cancel()
        let releases = await callers.value
        XCTAssertEqual(releases, [.zero, .milliseconds(300), .milliseconds(600), .milliseconds(900)],
                       "the first caller goes at once, each next one an interval later")
    }

    func testConcurrentCallersAreSpacedToo() async {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(50), clock: clock)
        let done = expectation(description: "five callers let through")
        let callers = Task {
            let releases = await withTaskGroup(of: Duration.self) { group in
                for _ in 0..<5 { group.addTask { await limiter.wait() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            done.fulfill()
            return releases.sorted()
        }
        for stillWaiting in (1..<5).reversed() {
            await clock.waitUntilSleeping(stillWaiting)
            clock.advance(by: .milliseconds(49))
            XCTAssertEqual(clock.sleeping, stillWaiting, "none let through a moment early")
            clock.advance(by: .milliseconds(1))
        }
        await fulfillment(of: [done], timeout: 5)
        callers.cancel()
        let releases = await callers.value
        XCTAssertEqual(releases, [.zero, .milliseconds(50), .milliseconds(100), .milliseconds(150), .milliseconds(200)])
        for (earlier, later) in zip(releases, releases.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, .milliseconds(50))
        }
    }

    func testAfterAQuietSpellTheNextCallerGoesAtOnce() async {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(minimumInterval: .milliseconds(300), clock: clock)
        await limiter.wait()
        clock.advance(by: .milliseconds(350))
        let done = expectation(description: "the next caller let through")
        let next = Task {
            let release = await limiter.wait()
            done.fulfill()
            return release
        }
        await fulfillment(of: [done], timeout: 5)
        next.cancel()
        let release = await next.value
        XCTAssertEqual(release, .milliseconds(350), "let through when it came")
        XCTAssertEqual(clock.sleepsStarted, 0, "a limiter that always waited would sleep here")
    }

    func testACancelledCallerStopsWaiting() async {
        let clock = ManualClock()
        let limiter = RequestRateLimiter(minimumInterval: .seconds(5), clock: clock)
        await limiter.wait()
        let stopped = expectation(description: "the cancelled caller stops waiting")
        let waiter = Task {
            await limiter.wait()
            stopped.fulfill()
        }
        await clock.waitUntilSleeping(1)
        waiter.cancel()
        await fulfillment(of: [stopped], timeout: 2)
        XCTAssertEqual(clock.now.sinceStart, .zero, "it stopped while the clock stood still")
    }
}

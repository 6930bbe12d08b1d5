import Foundation
import GLibSwift
import XCTest

/// A background thread runs its jobs in order; one that settles waits for a burst of jobs to be over, but not forever.
final class BackgroundThreadTests: XCTestCase {
    /// When each job ran, by name.
    private final class Runs: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var stamps: [(String, Date)] = []
        func mark(_ name: String) { lock.withLock { stamps.append((name, Date())) } }
        var all: [(String, Date)] { lock.withLock { stamps } }
    }

    func testJobsRunInTheOrderGiven() {
        let thread = BackgroundThread(name: "test-order", nice: 0)
        let runs = Runs()
        let done = expectation(description: "all ran")
        for name in ["a", "b", "c"] { thread.run { runs.mark(name) } }
        thread.run { done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(runs.all.map(\.0), ["a", "b", "c"])
    }

    func testASettlingThreadWaitsUntilTheBurstIsOver() {
        let thread = BackgroundThread(name: "test-settle", nice: 0, settle: 0.3, longestWait: 30)
        let runs = Runs()
        let done = expectation(description: "both ran")
        thread.run { runs.mark("first") }
        Thread.sleep(forTimeInterval: 0.15)
        let lastGiven = Date()
        thread.run {
            runs.mark("second")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        let ran = runs.all
        XCTAssertEqual(ran.map(\.0), ["first", "second"])
        XCTAssertGreaterThanOrEqual(ran[0].1.timeIntervalSince(lastGiven), 0.29,
                                    "the first job waited for the burst's last, then for the thread to settle")
    }

    func testAJobInAnEndlessBurstRunsAfterItsLongestWait() throws {
        let thread = BackgroundThread(name: "test-longest-wait", nice: 0, settle: 30, longestWait: 0.2)
        let runs = Runs()
        let first = expectation(description: "the first ran")
        thread.run {
            runs.mark("first")
            first.fulfill()
        }
        // Jobs keep coming, more often than the thread could settle, for far longer than the longest wait.
        let burst = Date()
        var given = 0
        while Date().timeIntervalSince(burst) < 3, runs.all.isEmpty {
            thread.run {}
            given += 1
            Thread.sleep(forTimeInterval: 0.02)
        }
        wait(for: [first], timeout: 10)
        XCTAssertGreaterThan(given, 3)
        XCTAssertLessThan(try XCTUnwrap(runs.all.first).1.timeIntervalSince(burst), 3,
                          "it ran while the burst went on")
    }
}

import Foundation
@testable import MapView
import XCTest

/// The tile-decoding thread's kind of thread runs its jobs in the order given.
final class BackgroundThreadTests: XCTestCase {
    /// Which jobs ran, in order.
    private final class Runs: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var names: [String] = []
        func mark(_ name: String) { lock.withLock { names.append(name) } }
        var all: [String] { lock.withLock { names } }
    }

    func testJobsRunInTheOrderGiven() {
        let thread = BackgroundThread(name: "test-order", nice: 0)
        let runs = Runs()
        let done = expectation(description: "all ran")
        for name in ["a", "b", "c"] { thread.run { runs.mark(name) } }
        thread.run { done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(runs.all, ["a", "b", "c"])
    }
}

import CGtk
import GLibSwift
import XCTest

private final class Canary {}

@MainActor
func pump(until condition: () -> Bool, seconds: Double = 3) {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline {
        MainLoopBridge.iterate(mayBlock: false)
        usleep(1000)
    }
}

final class SignalAndTimeoutTests: XCTestCase {
    func testSignalClosureRunsAndIsReleasedWithTheObject() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            let action = g_simple_action_new("test", nil)!
            var activations = 0
            weak var weakCanary: Canary?
            do {
                let canary = Canary()
                weakCanary = canary
                action.connect(.actionActivate) { _ in
                    _ = canary
                    activations += 1
                }
            }

            g_action_activate(action, nil)
            g_action_activate(action, nil)
            XCTAssertEqual(activations, 2)
            XCTAssertNotNil(weakCanary, "GLib must keep the closure alive while the object lives")

            g_object_unref(UnsafeMutableRawPointer(action))
            XCTAssertNil(weakCanary, "the closure must be released with its object")
        }
    }

    func testDisconnectStopsTheHandler() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            let action = g_simple_action_new("test", nil)!
            defer { g_object_unref(UnsafeMutableRawPointer(action)) }
            var activations = 0
            let id = action.connect(.actionActivate) { _ in activations += 1 }
            g_action_activate(action, nil)
            action.disconnect(id)
            g_action_activate(action, nil)
            XCTAssertEqual(activations, 1)
        }
    }

    func testTimeoutFiresOnceAndCancelledTimeoutNever() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            var fired = 0
            var cancelledFired = false
            let timeout = Timeout.after(milliseconds: 20) { fired += 1 }
            let cancelled = Timeout.after(milliseconds: 20) { cancelledFired = true }
            cancelled.cancel()

            pump(until: { fired > 0 })
            pump(until: { false }, seconds: 0.1)

            XCTAssertEqual(fired, 1)
            XCTAssertFalse(timeout.isPending)
            XCTAssertFalse(cancelledFired)
        }
    }

    func testATimeoutsBodyIsReleasedWhenItRunsThoughTheTimeoutIsKept() {
        MainActor.assumeIsolated {
            weak var weakCanary: Canary?
            var fired = false
            let timeout: Timeout = {
                let canary = Canary()
                weakCanary = canary
                return Timeout.after(milliseconds: 1) {
                    _ = canary
                    fired = true
                }
            }()
            XCTAssertNotNil(weakCanary, "GLib keeps the body until it runs")

            pump(until: { fired })

            XCTAssertTrue(fired)
            XCTAssertFalse(timeout.isPending)
            XCTAssertNil(weakCanary, "the body goes with its source, not with the Timeout that is still held")
        }
    }

    func testACancelledTimeoutsBodyIsReleasedAtOnce() {
        MainActor.assumeIsolated {
            weak var weakCanary: Canary?
            let timeout: Timeout = {
                let canary = Canary()
                weakCanary = canary
                return Timeout.whenIdle { _ = canary }
            }()
            XCTAssertTrue(timeout.isPending)

            timeout.cancel()

            XCTAssertFalse(timeout.isPending)
            XCTAssertNil(weakCanary, "cancelling removes the source, and its body with it")
        }
    }

    func testAnIdleBodyWaitsForEverythingMoreUrgent() {
        MainActor.assumeIsolated {
            var order: [String] = []
            let idle = Timeout.whenIdle { order.append("idle") }
            // Scheduled after the idle body, but at default priority: it runs first.
            Timeout.after(milliseconds: 0) { order.append("timeout") }
            let cancelled = Timeout.whenIdle { order.append("cancelled") }
            cancelled.cancel()

            pump(until: { order.count >= 2 })
            pump(until: { false }, seconds: 0.05)

            XCTAssertEqual(order, ["timeout", "idle"])
            XCTAssertFalse(idle.isPending)
        }
    }

    func testDebouncerRunsOnlyTheLastScheduledBody() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            let debouncer = Debouncer(milliseconds: 30)
            var runs: [Int] = []
            for value in 1...5 { debouncer.schedule { runs.append(value) } }

            pump(until: { !runs.isEmpty })
            pump(until: { false }, seconds: 0.1)

            XCTAssertEqual(runs, [5])
        }
    }

    func testDebouncerFlushRunsThePendingBodyAtOnce() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            let debouncer = Debouncer(milliseconds: 10_000)
            var runs = 0
            debouncer.schedule { runs += 1 }
            XCTAssertTrue(debouncer.hasPending)

            debouncer.flush()

            XCTAssertEqual(runs, 1)
            XCTAssertFalse(debouncer.hasPending)
            debouncer.flush()
            XCTAssertEqual(runs, 1, "flushing with nothing pending runs nothing")
        }
    }
}

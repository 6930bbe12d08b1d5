import CGtk
import Foundation
import GLibSwift
import XCTest

private final class ReportCanary {}

/// The main thread's CPU time, as the watchdog reads it.
private func mainThreadCPUMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
}

/// Blocks the main loop once, by `block`, and returns the first stall the watchdog reports.
@MainActor
private func firstStall(blockingWith block: @escaping @MainActor () -> Void) -> MainLoopWatchdog.Stall? {
    var stalls: [MainLoopWatchdog.Stall] = []
    var watchdog: MainLoopWatchdog?
    let finished = runMainLoop(seconds: 5) { quit in
        watchdog = MainLoopWatchdog(intervalMilliseconds: 5, thresholdMilliseconds: 20) { stall in
            stalls.append(stall)
            quit()
        }
        Timeout.after(milliseconds: 30, block)
    }
    watchdog?.stop()
    XCTAssertTrue(finished, "no stall was reported")
    return stalls.first
}

final class MainLoopWatchdogTests: XCTestCase {
    func testAStallOfWorkIsReportedWithTheMainThreadsCPUTime() throws {
        try MainActor.assumeIsolated {
            let stall = try XCTUnwrap(firstStall {
                let start = mainThreadCPUMilliseconds()
                var spin = 0.0
                while mainThreadCPUMilliseconds() - start < 40 { spin += 1 } // 40 ms of the main thread's own work
                XCTAssertGreaterThan(spin, 0)
            })
            XCTAssertGreaterThanOrEqual(stall.milliseconds, 20)
            XCTAssertGreaterThanOrEqual(stall.mainThreadCPUMilliseconds, 40, "the work ran between the two ticks")
            XCTAssertGreaterThanOrEqual(stall.spanMilliseconds, stall.milliseconds)
            XCTAssertLessThanOrEqual(stall.mainThreadCPUMilliseconds, stall.spanMilliseconds + 1)
            let waited = try XCTUnwrap(stall.waitedForCoreMilliseconds, "Linux's scheduler statistics are readable")
            XCTAssertGreaterThanOrEqual(waited, 0)
            XCTAssertLessThanOrEqual(stall.mainThreadCPUMilliseconds + waited, stall.spanMilliseconds + 1)
        }
    }

    func testAStallOfWorkAmongBusierThreadsIsReportedWithItsWaitForACore() throws {
        try MainActor.assumeIsolated {
            let stall = try XCTUnwrap(firstStall {
                // Twice as many threads as cores, each wanting a core for 300 ms, while the main thread works.
                let deadline = DispatchTime.now().uptimeNanoseconds + 300_000_000
                for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
                    Thread.detachNewThread {
                        var spin = 0
                        while DispatchTime.now().uptimeNanoseconds < deadline { spin &+= 1 }
                    }
                }
                let start = mainThreadCPUMilliseconds()
                while mainThreadCPUMilliseconds() - start < 40 {}
            })
            XCTAssertGreaterThanOrEqual(stall.mainThreadCPUMilliseconds, 40)
            let waited = try XCTUnwrap(stall.waitedForCoreMilliseconds)
            XCTAssertGreaterThan(waited, 10, "the main thread shared the cores with busier threads")
            // The stall is the span less the tick interval (5 ms); the CPU and the wait are read beside the clock at each
            // tick, and among spinning threads the main thread can lose a scheduler slice or two between those readings
            // (one CI run under AddressSanitizer: 7.6 ms). A double count of the wait would be tens of milliseconds.
            XCTAssertGreaterThanOrEqual(stall.milliseconds, stall.mainThreadCPUMilliseconds + waited - 15)
        }
    }

    func testStoppingTheWatchdogReleasesItsReportAtOnce() {
        MainActor.assumeIsolated {
            weak var weakCanary: AnyObject?
            let watchdog: MainLoopWatchdog = {
                let canary = ReportCanary()
                weakCanary = canary
                return MainLoopWatchdog(thresholdMilliseconds: 20) { _ in _ = canary }
            }()
            XCTAssertNotNil(weakCanary, "GLib keeps the report while the watchdog ticks")

            watchdog.stop()

            XCTAssertNil(weakCanary, "stopping removes the timer, and the report with it")
            watchdog.stop()
        }
    }

    func testAStallOfWaitingIsReportedWithLittleCPUTime() throws {
        try MainActor.assumeIsolated {
            // The main thread blocks, as on a reply from the X server, and uses no CPU meanwhile.
            let stall = try XCTUnwrap(firstStall { usleep(60_000) })
            XCTAssertGreaterThanOrEqual(stall.milliseconds, 50)
            XCTAssertLessThan(stall.mainThreadCPUMilliseconds, stall.milliseconds / 2,
                              "a wait is not work: \(stall.mainThreadCPUMilliseconds) ms of CPU in a \(stall.milliseconds) ms stall")
        }
    }
}

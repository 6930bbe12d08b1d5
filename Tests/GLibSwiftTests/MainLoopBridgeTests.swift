import CGtk
import Foundation
import GLibSwift
import XCTest

/// What a hop recorded: on which thread it ran.
@MainActor
private final class HopRecord {
    var thread: pthread_t?
    var wasMainThread = false
    var detachedRanOnMainThread: Bool?
    var arrivals: [Int] = []
}

@MainActor
private func threadOfMainActor() -> pthread_t { pthread_self() }

/// Runs a real GMainLoop until `quit` is called or `seconds` pass; returns false on time-out.
@MainActor
func runMainLoop(seconds: UInt32, _ start: (_ quit: @escaping @MainActor () -> Void) -> Void) -> Bool {
    let loop = g_main_loop_new(nil, 0)!
    defer { g_main_loop_unref(loop) }
    var timedOut = false
    let guardTimer = Timeout.after(milliseconds: seconds * 1000) {
        timedOut = true
        g_main_loop_quit(loop)
    }
    start { g_main_loop_quit(loop) }
    g_main_loop_run(loop)
    guardTimer.cancel()
    return !timedOut
}

final class MainLoopBridgeTests: XCTestCase {
    func testMainActorRunFromDetachedTaskLandsOnTheGTKThreadWhileTheLoopRuns() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            MainLoopBridge.attach()
            let gtkThread = pthread_self()
            let record = HopRecord()

            let finished = runMainLoop(seconds: 5) { quit in
                Task.detached {
                    let onMain = Thread.isMainThread
                    await MainActor.run {
                        record.detachedRanOnMainThread = onMain
                        record.thread = pthread_self()
                        record.wasMainThread = Thread.isMainThread
                        quit()
                    }
                }
            }

            XCTAssertTrue(finished, "MainActor.run never ran while the GLib main loop was running")
            XCTAssertEqual(record.detachedRanOnMainThread, false, "the detached part should run off the GTK thread")
            XCTAssertTrue(record.wasMainThread)
            XCTAssertNotNil(record.thread)
            if let thread = record.thread {
                XCTAssertNotEqual(pthread_equal(thread, gtkThread), 0, "MainActor work ran on another thread")
            }
        }
    }

    func testAwaitingAMainActorFunctionFromADetachedTaskHopsBackToTheGTKThread() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            MainLoopBridge.attach()
            let gtkThread = pthread_self()
            let record = HopRecord()

            let finished = runMainLoop(seconds: 5) { quit in
                Task.detached {
                    let thread = await threadOfMainActor()
                    await MainActor.run {
                        record.thread = thread
                        quit()
                    }
                }
            }

            XCTAssertTrue(finished, "the hop back to the main actor never happened")
            XCTAssertNotEqual(pthread_equal(record.thread ?? 0, gtkThread), 0)
        }
    }

    func testManyHopsAllArriveInOrder() {
        MainActor.assumeIsolated { // XCTest runs synchronous tests on the main thread
            MainLoopBridge.attach()
            let record = HopRecord()

            let finished = runMainLoop(seconds: 10) { quit in
                Task.detached {
                    for index in 0..<200 {
                        await MainActor.run {
                            record.arrivals.append(index)
                            if index == 199 { quit() }
                        }
                    }
                }
            }

            XCTAssertTrue(finished)
            XCTAssertEqual(record.arrivals, Array(0..<200))
        }
    }
}

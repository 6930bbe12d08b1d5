import CGtk
import Dispatch

/// Measures how late the main loop runs a short repeating timer: lateness is time the loop was
/// busy (a stall). For diagnosis and benchmarks; costs one wake-up per interval.
@MainActor
public final class MainLoopWatchdog {
    private final class State: @unchecked Sendable {
        // @unchecked: touched only on the GTK thread.
        let interval: UInt32
        var last = DispatchTime.now().uptimeNanoseconds
        var longest = 0.0
        let report: @MainActor (Double) -> Void
        let threshold: Double
        var stopped = false
        init(interval: UInt32, threshold: Double, report: @escaping @MainActor (Double) -> Void) {
            self.interval = interval
            self.threshold = threshold
            self.report = report
        }
    }

    private let state: State

    /// Reports every stall longer than `thresholdMilliseconds`.
    public init(intervalMilliseconds: UInt32 = 5, thresholdMilliseconds: Double = 20,
                report: @escaping @MainActor (_ stallMilliseconds: Double) -> Void) {
        state = State(interval: intervalMilliseconds, threshold: thresholdMilliseconds, report: report)
        let pointer = Unmanaged.passRetained(state).toOpaque()
        g_timeout_add_full(G_PRIORITY_DEFAULT, intervalMilliseconds, { data in
            let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
            if state.stopped { return 0 }
            let now = DispatchTime.now().uptimeNanoseconds
            let late = Double(now - state.last) / 1e6 - Double(state.interval)
            state.last = now
            state.longest = max(state.longest, late)
            if late > state.threshold { MainActor.assumeIsolated { state.report(late) } }
            return 1
        }, pointer, { data in Unmanaged<State>.fromOpaque(data!).release() })
    }

    /// The longest stall seen so far, in milliseconds.
    public var longestStall: Double { state.longest }

    public func stop() { state.stopped = true }
}

import CGtk
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Measures how late the main loop runs a short repeating timer: lateness is time the loop was busy (a stall).
/// Which stalls matter and what to do with them is the caller's: it gives the threshold and the report.
///
/// Each stall comes with the main thread's CPU time and its time waiting for a core since the previous tick, so
/// work, a busy machine and a blocking wait (such as on the X server) can be told apart.
@MainActor
public final class MainLoopWatchdog {
    /// One late tick.
    public struct Stall: Sendable {
        /// How late the tick ran: the time the main loop was busy past the tick's due time.
        public let milliseconds: Double
        /// The CPU time the main thread used since the previous tick (the stall, and the interval before it).
        public let mainThreadCPUMilliseconds: Double
        /// The time the main thread was ready to run but waited for a core since the previous tick (Linux's
        /// scheduler statistics); nil where they cannot be read.
        public let waitedForCoreMilliseconds: Double?
        /// The time since the previous tick (the interval and the stall), the span the CPU and core-waiting times
        /// are measured over.
        public let spanMilliseconds: Double
    }

    private final class State {
        let interval: UInt32
        var last = DispatchTime.now().uptimeNanoseconds
        var lastCPU = MainLoopWatchdog.threadCPUMilliseconds()
        var lastWaited = MainLoopWatchdog.threadRunQueueMilliseconds()
        var longest = 0.0
        init(interval: UInt32) { self.interval = interval }
    }

    private typealias Tick = @MainActor () -> Void

    private let state: State
    private var sourceID: guint = 0

    /// Reports every stall longer than `thresholdMilliseconds`; one wake-up per `intervalMilliseconds`.
    public init(intervalMilliseconds: UInt32 = 5, thresholdMilliseconds: Double,
                report: @escaping @MainActor (Stall) -> Void) {
        let state = State(interval: intervalMilliseconds)
        self.state = state
        let tick = ClosureBox<Tick> {
            let now = DispatchTime.now().uptimeNanoseconds
            let cpu = MainLoopWatchdog.threadCPUMilliseconds()
            let span = Double(now - state.last) / 1e6
            let late = span - Double(state.interval)
            let used = cpu - state.lastCPU
            let waited = MainLoopWatchdog.threadRunQueueMilliseconds()
            let waitedForCore = waited.flatMap { current in state.lastWaited.map { current - $0 } }
            state.last = now
            state.lastCPU = cpu
            state.lastWaited = waited
            state.longest = max(state.longest, late)
            if late > thresholdMilliseconds {
                report(Stall(milliseconds: late, mainThreadCPUMilliseconds: used,
                             waitedForCoreMilliseconds: waitedForCore, spanMilliseconds: span))
            }
        }
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, intervalMilliseconds, { data in
            let tick = ClosureBox<Tick>.from(data)
            MainActor.assumeIsolated { tick.body() }
            return 1 // G_SOURCE_CONTINUE: until stopped
        }, tick.retainedPointer(), ClosureBox<Tick>.destroyNotify)
    }

    /// The longest stall seen so far, in milliseconds.
    public var longestStall: Double { state.longest }

    /// Removes the timer, and with it the tick and `report`.
    public func stop() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    /// The calling thread's CPU time (the tick runs on the main thread: its own).
    nonisolated private static func threadCPUMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) * 1e3 + Double(now.tv_nsec) / 1e6
    }

    /// The calling thread's time spent ready to run but waiting for a core, from /proc/thread-self/schedstat
    /// (its second field, in nanoseconds); nil where there is no such file. A read of a few dozen bytes.
    nonisolated private static func threadRunQueueMilliseconds() -> Double? {
        let file = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 96)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        guard fields.count >= 2, let nanoseconds = Double(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return nanoseconds / 1e6
    }
}

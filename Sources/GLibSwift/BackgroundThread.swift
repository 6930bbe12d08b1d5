import Foundation

/// A thread of its own that runs jobs one after the other at a lower priority (a higher nice value) than the main
/// thread. On a 2-core machine, work at the main thread's priority could keep the main loop from its next frame for a
/// scheduler slice; niced, it gives the core back as soon as the main thread wakes. (Linux keeps nice values per
/// thread, which is why this is a thread of its own and not a queue on the shared pool.) It lives as long as the
/// process: make one per kind of work, once.
public final class BackgroundThread: @unchecked Sendable {
    // @unchecked: `jobs`, `lastAdded` and `oldestAdded` are guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private let settle: TimeInterval
    private let longestWait: TimeInterval
    /// When the last job was given, and when the oldest still waiting was (`Date`s: `NSCondition` waits until one).
    private var lastAdded = Date.distantPast
    private var oldestAdded: Date?

    /// Decodes map tiles, for every map (nice 10).
    public static let tileDecoding = BackgroundThread(name: "map-tile-decoding", nice: 10)

    /// `nice`: 10 for work a user waits for, in the background (map tiles); 19 for work nobody waits for, which then
    /// has a core only when nothing else wants it.
    ///
    /// `settle`: a job waits until no other has been given for that long (or until it has waited `longestWait`).
    /// For work that comes in bursts beside work a user waits for (keeping the pictures of an album decoded for the
    /// screen): even at nice 19, a thread keeping them as they came delayed the album's decodes by ~2 ms and its frame
    /// by ~4 ms on two cores; settled, it starts once the burst, and the frame after it, are over.
    public init(name: String, nice: Int32, settle: TimeInterval = 0, longestWait: TimeInterval = 2) {
        self.settle = settle
        self.longestWait = longestWait
        let thread = Thread { [self] in loop(nice: nice) }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread, after the jobs given before it.
    public func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        lastAdded = Date()
        oldestAdded = oldestAdded ?? lastAdded
        condition.signal()
        condition.unlock()
    }

    private func loop(nice: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) // this thread only (Linux)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            while settle > 0, let oldest = oldestAdded {
                let start = min(lastAdded.addingTimeInterval(settle), oldest.addingTimeInterval(longestWait))
                guard start > Date() else { break }
                _ = condition.wait(until: start) // a job given meanwhile moves `start` on
            }
            let job = jobs.removeFirst()
            oldestAdded = jobs.isEmpty ? nil : oldestAdded
            condition.unlock()
            job()
        }
    }
}

import Foundation

/// A thread of its own that runs jobs one after the other at a lower priority (a higher nice value) than the main
/// thread, so on a busy machine it gives the core back as soon as the main loop wakes for its next frame. Linux keeps
/// nice values per thread, which is why this is a thread and not a queue on the shared pool. It lives as long as the
/// process: make one per kind of work, once.
final class BackgroundThread: @unchecked Sendable {
    // @unchecked: `jobs` is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    /// Decodes map tiles, for every map; nice 10: a user waits for them, but not before the frame being drawn.
    static let tileDecoding = BackgroundThread(name: "map-tile-decoding", nice: 10)

    init(name: String, nice: Int32) {
        let thread = Thread { [self] in loop(nice: nice) }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread, after the jobs given before it.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop(nice: Int32) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) // this thread only (Linux)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

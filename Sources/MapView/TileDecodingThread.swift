import Foundation

/// The one thread that decodes map tiles, for every map, at a lower priority (nice 10) than the main thread.
/// On a 2-core machine a decode at the same priority could keep the main loop from its next frame for a
/// scheduler slice; at nice 10 the main thread takes the core back as soon as it wakes. (Linux keeps nice
/// values per thread, which is why this is a thread of its own and not a queue on the shared pool.)
final class TileDecodingThread: @unchecked Sendable {
    // @unchecked: `jobs` is guarded by `condition`.
    static let shared = TileDecodingThread()

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in self.loop() }
        thread.name = "map-tile-decoding"
        thread.start()
    }

    /// Runs `job` on the thread, after the jobs given before it.
    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) // this thread only (Linux)
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

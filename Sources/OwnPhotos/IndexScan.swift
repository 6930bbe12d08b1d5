import Foundation

/// One scan or refresh, run synchronously on the indexer's thread: compare each photo file's stamp with the index,
/// read the new and changed, write in batches, then remove what was not seen.
struct IndexScan: Sendable {
    struct Plan: Sendable {
        /// Folders to walk.
        var walk: [String]
        /// Single files to look at (they may be gone).
        var files: [String]
        /// The folders photos may be in; anything else loses its row.
        var within: [String]
        /// A whole scan: every row not seen is removed. Otherwise only rows of `walk` and `files`.
        var everything: Bool
    }

    static let batchSize = 500

    let index: OwnPhotoIndex
    let maximumFileBytes: Int64
    let stop: Stop
    let progress: (@Sendable (IndexReport) -> Void)?

    func run(_ plan: Plan) throws -> IndexReport {
        // A refreshed path that is no longer a folder may have been one: its rows below are looked at too.
        let known = plan.everything ? try index.stamps() : try index.stamps(exactly: plan.files, under: plan.walk + plan.files)
        var seen = Set<String>()
        var batch: [FileRecord] = []
        var report = IndexReport()

        func look(at path: String, stamp: FileStamp) throws {
            guard seen.insert(path).inserted else { return } // folders that overlap
            if known[path] == stamp {
                report.unchanged += 1
            } else {
                batch.append(FileRecord(path: path, stamp: stamp,
                                        reading: PhotoMetadataReader.read(path: path, size: stamp.size, maximumFileBytes: maximumFileBytes)))
                report.read += 1
            }
            if batch.count >= Self.batchSize {
                try flush()
            } else if (report.read + report.unchanged) % Self.batchSize == 0 {
                progress?(merged(report, try index.totals())) // a re-scan that reads little still shows it is moving
            }
        }
        func flush() throws {
            try index.write(batch)
            batch.removeAll(keepingCapacity: true)
            progress?(merged(report, try index.totals()))
        }

        let within = plan.within.filter { root in plan.within.allSatisfy { $0 == root || !PhotoFiles.isPath(root, within: $0) } }
        for root in plan.walk where within.contains(where: { PhotoFiles.isPath(root, within: $0) }) {
            try PhotoFiles.walk(root, shouldStop: stop.isRequested) { path, stamp in try look(at: path, stamp: stamp) }
        }
        for path in plan.files where within.contains(where: { PhotoFiles.isPath(path, within: $0) }) {
            if stop.isRequested() { break }
            if case .photo(let stamp) = PhotoFiles.kind(ofPath: path) { try look(at: path, stamp: stamp) }
        }
        if stop.isRequested() {
            try index.write(batch) // what was read is kept; the next scan goes on from there
            throw CancellationError()
        }
        let gone = known.keys.filter { !seen.contains($0) }
        report.removed = gone.count
        try index.write(batch, removing: gone)
        let final = merged(report, try index.totals())
        progress?(final)
        return final
    }

    private func merged(_ scan: IndexReport, _ totals: IndexReport) -> IndexReport {
        var report = totals
        report.read = scan.read
        report.unchanged = scan.unchanged
        report.removed = scan.removed
        return report
    }

    /// Asked between files; set by cancel() or the task's cancellation, from any thread.
    final class Stop: @unchecked Sendable {
        // @unchecked: both flags are touched only under `lock`.
        private let lock = NSLock()
        private var requested = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var done = false

        func request() { lock.withLock { requested = true } }
        func isRequested() -> Bool { lock.withLock { requested } }

        func markFinished() {
            let waiting = lock.withLock {
                done = true
                defer { waiters.removeAll() }
                return waiters
            }
            waiting.forEach { $0.resume() }
        }

        func finished() async {
            await withCheckedContinuation { continuation in
                let already = lock.withLock {
                    if !done { waiters.append(continuation) }
                    return done
                }
                if already { continuation.resume() }
            }
        }
    }
}

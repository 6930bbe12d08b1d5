import Foundation
import Logging

/// Keeps the index in step with the photo folders: walks them, reads only new or changed files, removes rows of files
/// gone. One scan at a time; the reading happens on a niced thread of its own, never the caller's or Swift's shared pool.
public actor OwnPhotoIndexer {
    private let index: OwnPhotoIndex
    private let logger: Logger
    private let maximumFileBytes: Int64
    private var running: IndexScan.Stop?

    public init(index: OwnPhotoIndex, logger: Logger) {
        self.init(index: index, logger: logger, maximumFileBytes: PhotoMetadataReader.maximumFileBytes)
    }

    /// `maximumFileBytes` smaller than the reader's, for tests.
    init(index: OwnPhotoIndex, logger: Logger, maximumFileBytes: Int64) {
        self.index = index
        self.logger = logger
        self.maximumFileBytes = maximumFileBytes
    }

    /// Walks `folders` (recursively; hidden files and folders skipped; links not followed), reads only new or changed
    /// files, removes rows of files gone or outside `folders`. Writes in batches of 500 so readers see progress;
    /// `progress` is called after each batch, from the scan's thread. Throws CancellationError when cancelled.
    public func scan(folders: [URL], progress: (@Sendable (IndexReport) -> Void)? = nil) async throws -> IndexReport {
        let roots = folders.map(\.standardizedFileURL.path)
        let report = try await run(IndexScan.Plan(walk: roots, files: [], within: roots, everything: true), progress: progress)
        logger.info("Own photos scanned", metadata: ["folders": "\(roots.count)", "photos": "\(report.photos)",
                                                     "read": "\(report.read)", "unchanged": "\(report.unchanged)",
                                                     "removed": "\(report.removed)"])
        return report
    }

    /// Re-reads only `paths` (a file monitor saw them change, appear or go); a folder's path re-scans that folder.
    /// Paths outside `folders`, or hidden within them, lose their rows and are not read.
    public func refresh(paths: [String], within folders: [URL]) async throws -> IndexReport {
        let roots = folders.map(\.standardizedFileURL.path)
        var walk: [String] = []
        var files: [String] = []
        for path in paths.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) {
            if case .folder = PhotoFiles.kind(ofPath: path) { walk.append(path) } else { files.append(path) }
        }
        return try await run(IndexScan.Plan(walk: walk, files: files, within: roots, everything: false), progress: nil)
    }

    /// Stops the scan under way; it throws CancellationError. Cancelling the scan's task does the same.
    public func cancel() {
        running?.request()
    }

    private func run(_ plan: IndexScan.Plan, progress: (@Sendable (IndexReport) -> Void)?) async throws -> IndexReport {
        // One at a time: a second scan waits for the first rather than racing it over the same rows.
        while let previous = running {
            await previous.finished()
        }
        let stop = IndexScan.Stop()
        running = stop
        defer {
            stop.markFinished()
            running = nil
        }
        let scan = IndexScan(index: index, maximumFileBytes: maximumFileBytes, stop: stop, progress: progress)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    // Niced, as tracker and baloo are: on two cores a scan must never hold the core the main loop waits for.
                    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) // 0: on Linux, this thread alone
                    continuation.resume(with: Result { try scan.run(plan) })
                }
                thread.name = "OwnPhotoIndexer"
                thread.start()
            }
        } onCancel: {
            stop.request()
        }
    }
}

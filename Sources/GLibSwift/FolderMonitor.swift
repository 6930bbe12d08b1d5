#if canImport(Glibc)
import Glibc
#endif
import CGtk
import Foundation
import Logging

/// Watches folders with GIO's file monitors (inotify on Linux): one monitor per folder, since GIO's are not recursive.
/// What changed reaches `onChange` on the main loop as one batch of paths, once the folders have been quiet for a
/// while, so copying a hundred photos in is one batch, not a hundred. A folder made (or moved) inside a watched one is
/// watched too; one deleted or moved away is no longer.
@MainActor
public final class FolderMonitor {
    /// inotify's watches are a per-user budget (often 8,192) shared with every other program.
    public nonisolated static let maximumFolders = 4096

    private let quietMilliseconds: UInt32
    private let logger: Logger
    private let onChange: @MainActor ([String]) -> Void
    /// The monitors by folder path, each with its handler: this object holds the only reference to each.
    private var monitors: [String: (monitor: UnsafeMutablePointer<GFileMonitor>, handler: SignalHandlerID)] = [:]
    private var pending: [String] = []
    private var pendingSet: Set<String> = []
    private let debouncer: Debouncer
    private var isStopped = false
    private var toldOfCap = false

    /// Watches exactly `folders` (see `folders(under:)` for a tree's), and folders that appear inside them later; the
    /// first `foldersPerTurn` at once, the rest over the next main-loop turns.
    public init(folders: [String], quietMilliseconds: UInt32 = 1000,
                logger: Logger = Logger(label: "FolderMonitor"), onChange: @escaping @MainActor ([String]) -> Void) {
        self.quietMilliseconds = quietMilliseconds
        self.logger = logger
        self.onChange = onChange
        debouncer = Debouncer(milliseconds: quietMilliseconds)
        watchInTurns(folders[...])
    }

    /// Folders watched at each main-loop turn: a monitor costs an inotify call and a GObject (about 30 µs), so a library
    /// of hundreds of folders is watched over several turns rather than in one stall.
    public nonisolated static let foldersPerTurn = 64

    private func watchInTurns(_ folders: ArraySlice<String>) {
        guard !isStopped else { return }
        for folder in folders.prefix(Self.foldersPerTurn) { watch(folder) }
        let rest = folders.dropFirst(Self.foldersPerTurn)
        guard !rest.isEmpty else { return }
        Timeout.after(milliseconds: 0) { [weak self] in self?.watchInTurns(rest) }
    }

    isolated deinit {
        stop()
    }

    /// The folders watched now.
    public var watchedFolders: [String] { Array(monitors.keys) }

    /// Stops watching: no batch arrives after this, not even one already waiting for quiet.
    public func stop() {
        isStopped = true
        debouncer.cancel()
        pending = []
        pendingSet = []
        for (monitor, handler) in monitors.values { Self.release(monitor, handler) }
        monitors = [:]
    }

    /// `roots` and every folder below them, depth first, up to `limit`: for a thread other than the main one, as
    /// a big tree takes a while. Hidden folders are left out and links are not followed (they could loop).
    public nonisolated static func folders(under roots: [String], limit: Int = maximumFolders) -> [String] {
        var found: [String] = []
        var waiting = Array(roots.reversed())
        while let folder = waiting.popLast(), found.count < limit {
            guard isFolder(folder) else { continue }
            found.append(folder)
            // Foundation reads the entries (readdir's records are shorter than a whole `dirent`; copying one overreads).
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let names = entries.filter { !$0.hasPrefix(".") }
            for name in names.sorted().reversed() { waiting.append(folder.hasSuffix("/") ? folder + name : folder + "/" + name) }
        }
        return found
    }

    // MARK: Monitors

    private func watch(_ folder: String) {
        guard !isStopped, monitors[folder] == nil else { return }
        guard monitors.count < Self.maximumFolders else {
            if !toldOfCap {
                toldOfCap = true
                logger.warning("Watching only \(Self.maximumFolders) folders for changed photos; changes in others are found at the next start")
            }
            return
        }
        let file = g_file_new_for_path(folder)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            logger.warning("Cannot watch a folder for changes (\(reason))")
            return
        }
        let handler = monitor.connect(.changed) { [weak self] path, otherPath, event in
            self?.changed(path, otherPath, event)
        }
        monitors[folder] = (monitor, handler)
    }

    /// Stops watching `folder` and the folders inside it (it was deleted or moved away).
    private func unwatch(_ folder: String) {
        let inside = folder.hasSuffix("/") ? folder : folder + "/"
        for path in monitors.keys where path == folder || path.hasPrefix(inside) {
            if let (monitor, handler) = monitors.removeValue(forKey: path) { Self.release(monitor, handler) }
        }
    }

    private static func release(_ monitor: UnsafeMutablePointer<GFileMonitor>, _ handler: SignalHandlerID) {
        // Disconnected first: an event GIO already queued must not reach a stopped watcher.
        monitor.disconnect(handler)
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }

    /// A folder that appeared is watched, with what it holds (a folder moved in may hold a tree, walked off the loop).
    private func watchIfFolder(_ path: String) {
        let name = (path as NSString).lastPathComponent
        guard !isStopped, !name.hasPrefix("."), Self.isFolder(path) else { return }
        watch(path)
        let room = Self.maximumFolders - monitors.count
        guard room > 0 else { return }
        Task { [weak self] in
            let below = await Task.detached(priority: .utility) { Self.folders(under: [path], limit: room + 1) }.value
            guard let self, !self.isStopped, self.monitors[path] != nil else { return }
            for folder in below.dropFirst() { self.watch(folder) }
        }
    }

    private nonisolated static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    // MARK: Events

    private func changed(_ path: String, _ otherPath: String?, _ event: GFileMonitorEvent) {
        guard !isStopped else { return }
        switch event {
        case G_FILE_MONITOR_EVENT_CREATED, G_FILE_MONITOR_EVENT_MOVED_IN:
            note(path)
            watchIfFolder(path)
        case G_FILE_MONITOR_EVENT_DELETED, G_FILE_MONITOR_EVENT_MOVED_OUT:
            note(path)
            unwatch(path)
        case G_FILE_MONITOR_EVENT_RENAMED:
            note(path)
            unwatch(path)
            if let otherPath {
                note(otherPath)
                watchIfFolder(otherPath)
            }
        case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT, G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
            note(path)
        default:
            // CHANGED comes while a file is being written; its CHANGES_DONE_HINT follows once it is whole.
            return
        }
    }

    private func note(_ path: String) {
        if pendingSet.insert(path).inserted { pending.append(path) }
        debouncer.schedule { [weak self] in self?.deliver() }
    }

    private func deliver() {
        guard !isStopped, !pending.isEmpty else { return }
        let batch = pending
        pending = []
        pendingSet = []
        onChange(batch)
    }
}

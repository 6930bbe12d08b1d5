import Foundation
import GLibSwift
import Logging

/// Keeps the own-photo index up to date while the app runs: the library's folders are watched, and what changed in
/// them is read again (only that). Watching starts over when the folders change or own photos are turned on or off.
@MainActor
final class OwnPhotoWatch {
    private let library: OwnPhotoLibrary
    private let logger: Logger
    private var observer: Int?
    private var monitor: FolderMonitor?
    private var walking: Task<Void, Never>?
    /// The folders being watched; nil while own photos are off.
    private var watched: [URL]?

    init(library: OwnPhotoLibrary, logger: Logger) {
        self.library = library
        self.logger = logger
        observer = library.observe { [weak self] in self?.follow() }
        follow()
    }

    isolated deinit {
        stop()
    }

    func stop() {
        if let observer { library.stopObserving(observer) }
        observer = nil
        walking?.cancel()
        monitor?.stop()
        monitor = nil
        watched = nil
    }

    /// The library tells of every scan batch too: only a change of folders or of the setting restarts the watch.
    private func follow() {
        let wanted = library.isEnabled ? library.folders : nil
        guard wanted != watched else { return }
        watched = wanted
        walking?.cancel()
        monitor?.stop()
        monitor = nil
        guard let wanted, !wanted.isEmpty else { return }
        let roots = wanted.map(\.path)
        walking = Task { [weak self, logger] in
            // A photo library can hold thousands of folders: found off the main loop.
            let folders = await Task.detached(priority: .utility) { FolderMonitor.folders(under: roots) }.value
            guard let self, !Task.isCancelled, self.watched == wanted else { return }
            self.monitor = FolderMonitor(folders: folders, logger: logger) { [weak self] paths in
                self?.library.refresh(paths: paths)
            }
            logger.debug("Watching \(folders.count) folders for changed photos")
        }
    }
}

import GLibSwift
import Logging
import TouristStore

/// Saves the map's centre and zoom while the user moves around (start-up reads them ahead):
/// debounced while moving (off the main thread), and on quit the last viewport the map reported
/// (never read from the widget then: it may already be gone).
@MainActor
final class ViewportKeeper {
    static let quietMilliseconds: UInt32 = 500

    private let store: any ViewStateStore
    private let logger: Logger
    private let debouncer = Debouncer(milliseconds: quietMilliseconds)
    private var lastSaved: Viewport?
    private var latest: Viewport?
    /// Told when a save fails, with a message a person can act on.
    var onSaveError: ((String) -> Void)?

    init(store: any ViewStateStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The map has shown `viewport` after a restore: no need to write it back.
    func markRestored(_ viewport: Viewport) {
        lastSaved = viewport
        latest = viewport
    }

    func viewportChanged(_ viewport: Viewport) {
        latest = viewport
        guard viewport != lastSaved else {
            debouncer.cancel()
            return
        }
        debouncer.schedule { [weak self] in self?.saveInBackground(viewport) }
    }

    /// On quit: write the last viewport the map reported, after any background save already queued.
    func flush() {
        debouncer.cancel()
        guard let viewport = latest, viewport != lastSaved else { return }
        do {
            try store.saveViewport(viewport)
            lastSaved = viewport
        } catch {
            logger.error("Could not save the map position: \(error.localizedDescription)")
        }
    }

    private func saveInBackground(_ viewport: Viewport) {
        lastSaved = viewport
        logger.debug("Saving viewport \(viewport.latitude), \(viewport.longitude) @ \(viewport.zoom)")
        store.saveViewportInBackground(viewport) { [weak self] error in
            guard let error else { return }
            let message = error.localizedDescription
            Task { @MainActor in
                self?.lastSaved = nil
                self?.logger.error("Could not save the map position: \(message)")
                self?.onSaveError?(message)
            }
        }
    }
}

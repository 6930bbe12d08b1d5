import CGtk
import GLibSwift
import Logging
import TouristStore

/// Remembers the window's size and whether it is maximized: restores them at start-up, records them as
/// they change (the size only while not maximized, so un-maximizing after a restart still works), saves
/// them in the background once resizing pauses, like the map position, and for good when the window goes.
@MainActor
final class WindowSizeKeeper {
    private let window: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let store: (any ViewStateStore)?
    private let logger: Logger
    private var trackedSize = MainWindow.defaultSize
    private var isMaximized = false
    private var saved: WindowState?
    private let debouncer = Debouncer(milliseconds: ViewportKeeper.quietMilliseconds)

    /// Sizes the window as `saved` says (nil on the first start, or too small to use: the default) and
    /// starts following its changes.
    init(window: UnsafeMutablePointer<GtkWidget>, saved: WindowState?, store: (any ViewStateStore)?, logger: Logger) {
        self.window = window
        lifetime = WidgetLifetime(window)
        self.store = store
        self.logger = logger
        if let state = saved, state.width >= 360, state.height >= 300 {
            trackedSize = (state.width, state.height)
            isMaximized = state.isMaximized
        }
        self.saved = windowState
        gtk_window_set_default_size(window.cast(), Int32(trackedSize.width), Int32(trackedSize.height))
        if isMaximized { gtk_window_maximize(window.cast()) }
        // Without a window manager (tests, kiosks) the window would otherwise land anywhere.
        gtk_window_move(window.cast(), 0, 0)

        window.connect(.configure) { [weak self] _ in
            guard let self else { return false }
            if !self.isMaximized {
                var width: Int32 = 0, height: Int32 = 0
                gtk_window_get_size(self.window.cast(), &width, &height)
                self.trackedSize = (Int(width), Int(height))
            }
            self.changed()
            return false
        }
        window.connect(.windowState) { [weak self] event in
            let state = event.pointee.window_state.new_window_state
            self?.isMaximized = state.rawValue & GDK_WINDOW_STATE_MAXIMIZED.rawValue != 0
            self?.changed()
            return false
        }
        lifetime.onDestroy { [weak self] in self?.flush() }
    }

    private var windowState: WindowState {
        WindowState(width: trackedSize.width, height: trackedSize.height, isMaximized: isMaximized)
    }

    private func changed() {
        guard let store, windowState != saved else { return }
        debouncer.schedule { [weak self] in
            guard let self else { return }
            let state = self.windowState
            self.saved = state
            let logger = self.logger
            Task.detached {
                do { try store.saveWindowState(state) } catch {
                    logger.error("Could not save the window size: \(error.localizedDescription)")
                }
            }
        }
    }

    /// The window is going (also run when it is destroyed): what changed since the last save is saved now.
    func flush() {
        debouncer.cancel()
        guard let store, windowState != saved else { return }
        do {
            try store.saveWindowState(windowState)
            saved = windowState
        } catch {
            logger.error("Could not save the window size: \(error.localizedDescription)")
        }
    }
}

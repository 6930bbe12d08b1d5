import TouristStore

/// What the window needs from the store to reopen exactly as it was left.
public protocol ViewStateStore: Sendable {
    func viewport() throws -> Viewport?
    func saveViewport(_ viewport: Viewport) throws
    func saveViewportInBackground(_ viewport: Viewport, completion: (@Sendable (Error?) -> Void)?)
    func windowState() throws -> WindowState?
    func saveWindowState(_ state: WindowState) throws
}

extension AppDatabase: ViewStateStore {}

import CGtk

/// The one ownership rule for Swift objects that keep widget pointers: each keeps a
/// `WidgetLifetime` of its root widget. The lifetime holds a reference, so the pointers stay valid
/// memory for as long as the Swift object lives, and it turns `isAlive` off when the widget is
/// destroyed, after which the object must not touch its widgets. Late callbacks (a finished task,
/// a timeout, a store change) start with `guard lifetime.isAlive`; teardown registered with
/// `onDestroy` stops the sources of such callbacks early (observations, timers).
@MainActor
public final class WidgetLifetime {
    public private(set) var isAlive = true
    private let object: UnsafeMutableRawPointer
    private var teardown: [@MainActor () -> Void] = []

    public init(_ widget: some GObjectPointer) {
        object = widget.rawObject
        g_object_ref_sink(object) // a floating child is sunk; its container then takes its own reference
        widget.connect(.destroy) { [weak self] in self?.destroyed() }
    }

    isolated deinit {
        // The widget goes with its last reference, on the GTK thread where GTK expects it.
        g_object_unref(object)
    }

    /// Runs `body` when the widget is destroyed (at once if it already was).
    public func onDestroy(_ body: @escaping @MainActor () -> Void) {
        if isAlive { teardown.append(body) } else { body() }
    }

    /// Keeps `owner` alive until the widget is destroyed: for a Swift object nothing but its widget holds (a dialog).
    public func keep(_ owner: AnyObject) {
        onDestroy { withExtendedLifetime(owner) {} }
    }

    /// Destroys the widget with `owner`: for a widget no container destroys, such as a popup menu (a toplevel of its
    /// own, which GTK keeps when the widget it is attached to goes).
    public func destroy(with owner: some GObjectPointer) {
        owner.connect(.destroy) { [self] in
            if isAlive { gtk_widget_destroy(object.assumingMemoryBound(to: GtkWidget.self)) }
        }
    }

    private func destroyed() {
        guard isAlive else { return }
        isAlive = false
        let bodies = teardown
        teardown.removeAll()
        for body in bodies { body() }
    }
}

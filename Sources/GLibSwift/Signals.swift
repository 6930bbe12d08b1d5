import Foundation
import CGtk

/// A signal whose C handler is `void (*)(GObject *instance, gpointer user_data)`.
public struct VoidSignal: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    public static let clicked = VoidSignal("clicked")
    public static let activate = VoidSignal("activate")
    public static let startup = VoidSignal("startup")
    public static let shutdown = VoidSignal("shutdown")
    public static let destroy = VoidSignal("destroy")
    /// OsmGpsMap: the centre or zoom changed.
    public static let changed = VoidSignal("changed")
    public static let map = VoidSignal("map")
    /// GtkPopover::closed.
    public static let closed = VoidSignal("closed")
    /// GtkSearchEntry: the text changed and the typing paused.
    public static let searchChanged = VoidSignal("search-changed")
    /// GtkSearchEntry: Escape.
    public static let stopSearch = VoidSignal("stop-search")
}

/// A signal whose C handler is `gboolean (*)(GtkWidget *widget, GdkEvent *event, gpointer user_data)`.
/// The handler returns true to stop other handlers (and the default one) from seeing the event.
public struct EventSignal: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    public static let buttonPress = EventSignal("button-press-event")
    public static let buttonRelease = EventSignal("button-release-event")
    public static let motionNotify = EventSignal("motion-notify-event")
    public static let keyPress = EventSignal("key-press-event")
    public static let delete = EventSignal("delete-event")
    public static let configure = EventSignal("configure-event")
    public static let windowState = EventSignal("window-state-event")
}

/// A signal whose C handler is `void (*)(GObject *instance, gpointer argument, gpointer user_data)`.
public struct PointerSignal: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    /// GSimpleAction::activate (argument: the GVariant parameter, may be NULL).
    public static let actionActivate = PointerSignal("activate")
    /// GtkWidget::size-allocate (argument: the GtkAllocation).
    public static let sizeAllocate = PointerSignal("size-allocate")
    /// GtkFlowBox::child-activated (argument: the GtkFlowBoxChild).
    public static let childActivated = PointerSignal("child-activated")
    /// GtkListBox::row-activated (argument: the GtkListBoxRow).
    public static let rowActivated = PointerSignal("row-activated")
    /// GtkListBox: the selected row changed (nil: none).
    public static let rowSelected = PointerSignal("row-selected")
    /// GtkStack notify::visible-child (argument: the GParamSpec).
    public static let notifyVisibleChild = PointerSignal("notify::visible-child")
    /// GtkSwitch (or any widget with an "active" property) notify::active (argument: the GParamSpec).
    public static let notifyActive = PointerSignal("notify::active")
}

/// A signal whose C handler is `void (*)(GObject *instance, gint value, gpointer user_data)`.
public struct IntSignal: Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }

    /// GtkDialog::response (value: the response id).
    public static let response = IntSignal("response")
}

/// GtkWidget::draw: `gboolean (*)(GtkWidget *widget, cairo_t *cr, gpointer user_data)`.
public struct DrawSignal: Sendable {
    public let name = "draw"
    public static let draw = DrawSignal()
}

/// GtkWidget::query-tooltip: `gboolean (*)(GtkWidget *, gint x, gint y, gboolean keyboard_mode,
/// GtkTooltip *tooltip, gpointer user_data)`; the handler fills the tooltip and returns true to show it.
public struct TooltipSignal: Sendable {
    public let name = "query-tooltip"
    public static let queryTooltip = TooltipSignal()
}

/// GtkGestureSwipe::swipe: `void (*)(GtkGestureSwipe *, gdouble velocity_x, gdouble velocity_y, gpointer)`
/// (pixels per second).
public struct SwipeSignal: Sendable {
    public let name = "swipe"
    public static let swipe = SwipeSignal()
}

/// GFileMonitor::changed: `void (*)(GFileMonitor *, GFile *file, GFile *other_file, GFileMonitorEvent, gpointer)`;
/// the handler gets the files' paths (`otherPath`: the new name of a renamed file, with G_FILE_MONITOR_WATCH_MOVES).
public struct FileMonitorSignal: Sendable {
    public let name = "changed"
    public static let changed = FileMonitorSignal()
}

/// GApplication::open: the files the app was started with or asked to open (needs G_APPLICATION_HANDLES_OPEN).
public struct OpenSignal: Sendable {
    public static let open = OpenSignal()
}

public typealias SignalHandlerID = UInt

private typealias VoidHandler = @MainActor () -> Void
private typealias EventHandler = @MainActor (UnsafeMutablePointer<GdkEvent>) -> Bool
private typealias PointerHandler = @MainActor (UnsafeMutableRawPointer?) -> Void
private typealias IntHandler = @MainActor (Int32) -> Void
private typealias DrawHandler = @MainActor (OpaquePointer) -> Bool
private typealias SwipeHandler = @MainActor (_ velocityX: Double, _ velocityY: Double) -> Void
private typealias OpenHandler = @MainActor ([URL]) -> Void
private typealias FileMonitorHandler = @MainActor (_ path: String, _ otherPath: String?, GFileMonitorEvent) -> Void
private typealias TooltipHandler = @MainActor (_ x: Int32, _ y: Int32, _ keyboard: Bool, OpaquePointer) -> Bool

private let voidThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    let box = ClosureBox<VoidHandler>.from(data)
    MainActor.assumeIsolated { box.body() }
}

private let eventThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
    guard let deliveredEvent = event else { return 0 }
    let box = ClosureBox<EventHandler>.from(data)
    nonisolated(unsafe) let event = deliveredEvent // GTK delivers signals on its own (main) thread
    return MainActor.assumeIsolated { box.body(event).gboolean }
}

private let pointerThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, deliveredArgument, data in
    let box = ClosureBox<PointerHandler>.from(data)
    nonisolated(unsafe) let argument = deliveredArgument // GTK delivers signals on its own (main) thread
    MainActor.assumeIsolated { box.body(argument) }
}

private let intThunk: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, value, data in
    let box = ClosureBox<IntHandler>.from(data)
    MainActor.assumeIsolated { box.body(value) }
}

private let drawThunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, deliveredContext, data in
    guard let deliveredContext else { return 0 }
    let box = ClosureBox<DrawHandler>.from(data)
    nonisolated(unsafe) let context = deliveredContext // GTK draws on its own (main) thread
    return MainActor.assumeIsolated { box.body(context).gboolean }
}

private let tooltipThunk: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, gboolean, OpaquePointer?,
                                          UnsafeMutableRawPointer?) -> gboolean = { _, x, y, keyboard, deliveredTooltip, data in
    guard let deliveredTooltip else { return 0 }
    let box = ClosureBox<TooltipHandler>.from(data)
    nonisolated(unsafe) let tooltip = deliveredTooltip // GTK asks on its own (main) thread
    return MainActor.assumeIsolated { box.body(x, y, keyboard != 0, tooltip).gboolean }
}

private let swipeThunk: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, velocityX, velocityY, data in
    let box = ClosureBox<SwipeHandler>.from(data)
    MainActor.assumeIsolated { box.body(velocityX, velocityY) }
}

private let openThunk: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32,
                                       UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
    let box = ClosureBox<OpenHandler>.from(data)
    let urls: [URL] = (0..<Int(max(count, 0))).compactMap { index in
        guard let file = files?[index], let path = g_file_get_path(file) else { return nil } // a URI with no local path
        defer { g_free(path) }
        return URL(fileURLWithPath: String(cString: path))
    }
    MainActor.assumeIsolated { box.body(urls) }
}

private let fileMonitorThunk: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent,
                                              UnsafeMutableRawPointer?) -> Void = { _, file, otherFile, event, data in
    let box = ClosureBox<FileMonitorHandler>.from(data)
    func path(of file: OpaquePointer?) -> String? {
        guard let file, let path = g_file_get_path(file) else { return nil } // a URI with no local path
        defer { g_free(path) }
        return String(cString: path)
    }
    guard let changed = path(of: file) else { return }
    let other = path(of: otherFile)
    MainActor.assumeIsolated { box.body(changed, other, event) } // GIO emits on the context the monitor was made in
}

@MainActor
private func connectThunk<Handler>(_ instance: UnsafeMutableRawPointer, _ name: String, _ thunk: UnsafeRawPointer,
                                   _ box: ClosureBox<Handler>, after: Bool = false) -> SignalHandlerID {
    // Connected before the default handler unless asked, so handlers can stop an event reaching the widget.
    let callback = unsafeBitCast(thunk, to: GCallback.self)
    let flags = after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0)
    return SignalHandlerID(g_signal_connect_data(instance, name, callback, box.retainedPointer(),
                                                  ClosureBox<Handler>.closureNotify, flags))
}

extension GObjectPointer {
    @MainActor @discardableResult
    public func connect(_ signal: VoidSignal, _ handler: @escaping @MainActor () -> Void) -> SignalHandlerID {
        let box = ClosureBox<VoidHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(voidThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: EventSignal,
                        _ handler: @escaping @MainActor (UnsafeMutablePointer<GdkEvent>) -> Bool) -> SignalHandlerID {
        let box = ClosureBox<EventHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(eventThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: PointerSignal,
                        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> SignalHandlerID {
        let box = ClosureBox<PointerHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(pointerThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: IntSignal, _ handler: @escaping @MainActor (Int32) -> Void) -> SignalHandlerID {
        let box = ClosureBox<IntHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(intThunk, to: UnsafeRawPointer.self), box)
    }

    /// `after`: run once the widget's own drawing is done (e.g. to time it).
    @MainActor @discardableResult
    public func connect(_ signal: DrawSignal, after: Bool = false,
                        _ handler: @escaping @MainActor (OpaquePointer) -> Bool) -> SignalHandlerID {
        let box = ClosureBox<DrawHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(drawThunk, to: UnsafeRawPointer.self), box, after: after)
    }

    /// `handler(x, y, keyboardMode, tooltip)`; the widget must have `has-tooltip` set.
    @MainActor @discardableResult
    public func connect(_ signal: TooltipSignal,
                        _ handler: @escaping @MainActor (Int32, Int32, Bool, OpaquePointer) -> Bool) -> SignalHandlerID {
        let box = ClosureBox<TooltipHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(tooltipThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: SwipeSignal,
                        _ handler: @escaping @MainActor (_ velocityX: Double, _ velocityY: Double) -> Void) -> SignalHandlerID {
        let box = ClosureBox<SwipeHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(swipeThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: OpenSignal, _ handler: @escaping @MainActor ([URL]) -> Void) -> SignalHandlerID {
        let box = ClosureBox<OpenHandler>(handler)
        return connectThunk(rawObject, "open", unsafeBitCast(openThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor @discardableResult
    public func connect(_ signal: FileMonitorSignal,
                        _ handler: @escaping @MainActor (_ path: String, _ otherPath: String?, GFileMonitorEvent) -> Void)
        -> SignalHandlerID {
        let box = ClosureBox<FileMonitorHandler>(handler)
        return connectThunk(rawObject, signal.name, unsafeBitCast(fileMonitorThunk, to: UnsafeRawPointer.self), box)
    }

    @MainActor
    public func disconnect(_ id: SignalHandlerID) {
        g_signal_handler_disconnect(rawObject, gulong(id))
    }
}

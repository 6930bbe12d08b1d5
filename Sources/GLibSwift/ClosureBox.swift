import CGtk

/// Carries a Swift closure through a C `gpointer`. GLib owns the box (passRetained + destroy-notify),
/// so the closure lives exactly as long as the signal connection, source or handler that calls it.
public final class ClosureBox<Body>: @unchecked Sendable {
    // @unchecked: the body runs on the GTK thread under MainActor.assumeIsolated, or is Sendable (a log route).
    public let body: Body

    public init(_ body: Body) { self.body = body }

    /// The user data to hand GLib with `destroyNotify` (or `closureNotify`), which releases it.
    public func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The box behind a callback's user data.
    public static func from(_ pointer: UnsafeMutableRawPointer?) -> ClosureBox<Body> {
        Unmanaged<ClosureBox<Body>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    /// Releases the box: the `GDestroyNotify` for sources, handlers and objects that take user data.
    public static var destroyNotify: GDestroyNotify {
        // A C function pointer cannot name `Body`; releasing needs only the object.
        { pointer in if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() } }
    }

    /// Releases the box: the `GClosureNotify` for signal connections.
    public static var closureNotify: GClosureNotify {
        { pointer, _ in if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() } }
    }
}

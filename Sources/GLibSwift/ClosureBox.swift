/// Carries a Swift closure through a C `gpointer`. GLib owns the box (passRetained + destroy-notify),
/// so the closure lives exactly as long as the signal connection or source that calls it.
final class ClosureBox<Body>: @unchecked Sendable {
    // @unchecked: the body is only ever called on the GTK (main) thread, under MainActor.assumeIsolated.
    let body: Body

    init(_ body: Body) { self.body = body }

    func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> ClosureBox<Body> {
        Unmanaged<ClosureBox<Body>>.fromOpaque(pointer!).takeUnretainedValue()
    }

    static func release(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        Unmanaged<ClosureBox<Body>>.fromOpaque(pointer).release()
    }
}

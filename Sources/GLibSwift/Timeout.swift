import CGtk

/// A one-shot GLib timeout on the main context whose body runs on the GTK thread.
@MainActor
public final class Timeout {
    private typealias Body = @MainActor () -> Void

    private var sourceID: guint = 0
    /// Not yet run nor cancelled.
    public private(set) var isPending = true

    /// Runs `body` once after `milliseconds`, unless cancelled first.
    @discardableResult
    public static func after(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) -> Timeout {
        Timeout(milliseconds: milliseconds, priority: G_PRIORITY_DEFAULT, body)
    }

    /// Runs `body` once when the main loop has nothing more urgent to do: after input, redraws and
    /// default-priority sources (`G_PRIORITY_DEFAULT_IDLE`), unless cancelled first.
    @discardableResult
    public static func whenIdle(_ body: @escaping @MainActor () -> Void) -> Timeout {
        Timeout(milliseconds: 0, priority: G_PRIORITY_DEFAULT_IDLE, body)
    }

    private init(milliseconds: UInt32, priority: Int32, _ body: @escaping @MainActor () -> Void) {
        // GLib owns the body, so it is released when the source goes (run or cancelled), not with this object.
        let fire = ClosureBox<Body> { [weak self] in
            self?.isPending = false
            body()
        }
        sourceID = g_timeout_add_full(priority, milliseconds, { data in
            let fire = ClosureBox<Body>.from(data)
            MainActor.assumeIsolated { fire.body() }
            return 0 // G_SOURCE_REMOVE
        }, fire.retainedPointer(), ClosureBox<Body>.destroyNotify)
    }

    public func cancel() {
        guard isPending else { return }
        isPending = false
        g_source_remove(sourceID)
    }
}

/// Runs the last scheduled body once things have been quiet for `milliseconds`.
@MainActor
public final class Debouncer {
    private let milliseconds: UInt32
    private var pending: Timeout?
    private var pendingBody: (@MainActor () -> Void)?

    public init(milliseconds: UInt32) { self.milliseconds = milliseconds }

    public func schedule(_ body: @escaping @MainActor () -> Void) {
        pending?.cancel()
        pendingBody = body
        pending = Timeout.after(milliseconds: milliseconds) { [weak self] in
            self?.runPending()
        }
    }

    /// Runs the pending body now (e.g. on quit), if there is one.
    public func flush() {
        pending?.cancel()
        runPending()
    }

    public var hasPending: Bool { pendingBody != nil }

    public func cancel() {
        pending?.cancel()
        pending = nil
        pendingBody = nil
    }

    private func runPending() {
        let body = pendingBody
        pending = nil
        pendingBody = nil
        body?()
    }
}

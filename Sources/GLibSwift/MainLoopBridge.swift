import CGtk
import CShims
import Dispatch

/// While gtk_main()/g_application_run() runs, libdispatch's main queue is not drained, so
/// `@MainActor` work would never run. Attaching the bridge makes the GTK thread the main actor.
@MainActor
public enum MainLoopBridge {
    private static var attachedSource: guint = 0

    /// Idempotent; call on the main thread before running the GLib main loop.
    public static func attach() {
        guard attachedSource == 0 else { return }
        attachedSource = vt_main_queue_attach(nil)
    }

    public static var isAttached: Bool { attachedSource != 0 }

    /// Runs one pass of the default main context; for tests that pump the loop by hand.
    @discardableResult
    public static func iterate(mayBlock: Bool = false) -> Bool {
        g_main_context_iteration(nil, mayBlock.gboolean) != 0
    }
}

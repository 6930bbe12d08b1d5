import CGtk

/// SIGTERM/SIGINT/SIGHUP delivered as ordinary main-loop callbacks, so quitting can save state.
@MainActor
public enum UnixSignals {
    private typealias Handler = @MainActor () -> Void

    public static func on(_ signal: Int32, _ handler: @escaping @MainActor () -> Void) {
        g_unix_signal_add_full(G_PRIORITY_HIGH, signal, { data in
            let box = ClosureBox<Handler>.from(data)
            MainActor.assumeIsolated { box.body() }
            return 1 // G_SOURCE_CONTINUE: a second SIGTERM still reaches us
        }, ClosureBox<Handler>(handler).retainedPointer(), ClosureBox<Handler>.destroyNotify)
    }
}

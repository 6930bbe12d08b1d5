import CGtk
import Foundation
import Logging

/// The GtkApplication both apps are built on: named for the desktop, one instance over D-Bus, app-wide
/// actions and their shortcuts, the signals that end it, its main loop, and the desktop's dark style.
@MainActor
public final class DesktopApplication {
    public let application: UnsafeMutablePointer<GtkApplication>
    /// Followed from startup (GTK must be initialised) to shutdown.
    public private(set) var colorScheme: DesktopColorScheme?

    /// - parameter opensFiles: whether files given on the command line or by "Open With" come to `.open` handlers.
    public init(id: String, programName: String, name: String, opensFiles: Bool = false) {
        // AT-SPI names the app by its program name; the shell shows the application name.
        g_set_prgname(programName)
        g_set_application_name(name)
        application = gtk_application_new(id, opensFiles ? G_APPLICATION_HANDLES_OPEN : GApplicationFlags(rawValue: 0))
        // Connected before the apps' own startup handlers, so their first window is already in the desktop's style.
        application.connect(.startup) { [weak self] in
            self?.colorScheme = DesktopColorScheme(logger: Logger(label: programName))
        }
        application.connect(.shutdown) { [weak self] in self?.colorScheme = nil }
    }

    /// Runs the main loop; returns the exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        MainLoopBridge.attach()
        return withCStringArray(arguments) { argv in
            argv.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: arguments.count + 1) {
                g_application_run(application.cast(), Int32(arguments.count), $0)
            }
        }
    }

    /// Ends the main loop at once: `run` returns.
    public func quit() {
        g_application_quit(application.cast())
    }

    /// Adds `app.<name>`, run by `body`, with its keyboard shortcuts.
    public func addAction(_ name: String, accels: [String] = [], _ body: @escaping @MainActor () -> Void) {
        SimpleAction.add(name, to: application, body)
        if !accels.isEmpty { setAccels("app.\(name)", accels) }
    }

    /// The keyboard shortcuts of an action, e.g. "win.zoom-in".
    public func setAccels(_ detailedAction: String, _ accels: [String]) {
        withCStringArray(accels) { gtk_application_set_accels_for_action(application, detailedAction, $0) }
    }

    /// Calls `body` on the main loop when SIGTERM, SIGINT or SIGHUP arrives, so the app can save and quit.
    public func onTerminationSignals(_ body: @escaping @MainActor (Int32) -> Void) {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            UnixSignals.on(signal) { body(signal) }
        }
    }
}

extension DesktopApplication {
    /// Answers `--version`, or `--help` and `-h` (usage, `about`, then the `environment` variables' lines), on
    /// standard output and exits; returns when the command line asks for neither.
    public nonisolated static func answerInformationOptions(_ arguments: [String], programName: String, version: String,
                                                            about: String, environment: String) {
        if arguments.contains("--version") {
            print("\(programName) \(version)")
            exit(0)
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print("Usage: \(programName) [--version]\n\n\(about)\n\nEnvironment:\n\(environment)")
            exit(0)
        }
    }
}

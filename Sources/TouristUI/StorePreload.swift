import Dispatch
import Foundation
import TouristStore

/// Opens the store and reads what the window shows first on another thread while GTK starts, so start-up pays
/// for the slower of the two; it leaves staging alone, as a second launch must not touch the first's downloads.
final class StorePreload: @unchecked Sendable {
    // @unchecked: `outcome` is written once on the loading thread before `loaded` is signalled, and
    // read only after waiting for that signal; the semaphore orders the two.
    struct Outcome {
        var database: Result<AppDatabase, Error>
        var viewport: Result<Viewport?, Error> = .success(nil)
        var windowState: Result<WindowState?, Error> = .success(nil)
    }

    private let loaded = DispatchSemaphore(value: 0)
    private var outcome: Outcome?

    init(paths: AppPaths) {
        Thread.detachNewThread { [self] in
            var outcome = Outcome(database: Result { try AppDatabase.open(paths: paths, emptyingStaging: false) })
            if case .success(let database) = outcome.database {
                outcome.viewport = Result { try database.viewport() }
                outcome.windowState = Result { try database.windowState() }
            }
            self.outcome = outcome
            loaded.signal()
        }
    }

    /// What was loaded, waiting for it if it is not ready yet. Call once.
    func take() -> Outcome {
        loaded.wait()
        return outcome!
    }
}

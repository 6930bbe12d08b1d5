import Foundation

/// Stops one `StudentDirectory.observe` callback; observation otherwise lasts as long as the directory.
@MainActor
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

/// The students everyone has posted, newest first: the one model the map and the list observe.
/// Views never download; they call `refresh()` and redraw when an observer is called.
@MainActor
public final class StudentDirectory {
    /// `.empty`: nothing downloaded yet (or logged out). `.loaded`: `students` is the server's latest list
    /// (which may have no one in it). `.failed`: the last refresh failed; `students` is what was there before.
    public enum State: Equatable, Sendable {
        case empty, loading, loaded, failed(StudentLocationsError)
    }

    /// How many students a refresh downloads, as Udacity's app did.
    public static let pageSize = 100

    public private(set) var students: [StudentInformation] = []
    /// Set when the server sent more than the `pageSize` asked for: `students` are the newest of what it sent,
    /// and the UI says so. Kept with the students a failed refresh keeps.
    public private(set) var excess: ExcessAnswer?
    public private(set) var state: State = .empty
    public let api: any StudentLocationsAPI

    private var observers: [Int: @MainActor () -> Void] = [:]
    private var nextObserverID = 0
    private var inFlight: Task<Void, Never>?
    /// Bumped by `clear()`, so a refresh that finishes after log out doesn't bring the list back.
    private var generation = 0

    public init(api: any StudentLocationsAPI) {
        self.api = api
    }

    /// `onChange` runs after every change of `students` or `state`, on the main actor.
    @discardableResult
    public func observe(_ onChange: @escaping @MainActor () -> Void) -> ObservationToken {
        let id = nextObserverID
        nextObserverID += 1
        observers[id] = onChange
        return ObservationToken { [weak self] in self?.observers[id] = nil }
    }

    /// Downloads the most recent `pageSize` students. On failure the old students stay (a map with
    /// yesterday's pins beats an empty one) and `state` says why. Calls made during a refresh join it.
    public func refresh() async {
        if let inFlight {
            await inFlight.value
            return
        }
        let task = Task { await download() }
        inFlight = task
        await task.value
        if inFlight == task { inFlight = nil }
    }

    private func download() async {
        let generation = generation
        state = .loading
        notify()
        let result: Result<RecentLocations, StudentLocationsError>
        do {
            result = .success(try await api.recentLocations(limit: Self.pageSize))
        } catch {
            result = .failure(error)
        }
        guard generation == self.generation else { return }
        switch result {
        case .success(let recent):
            students = recent.students.sorted { $0.updatedAt > $1.updatedAt }
            excess = recent.excess
            state = .loaded
        case .failure(.cancelled):
            state = students.isEmpty ? .empty : .loaded
        case .failure(let error):
            state = .failed(error)
        }
        notify()
    }

    /// Forgets everyone (on log out).
    public func clear() {
        generation += 1
        inFlight?.cancel()
        inFlight = nil
        students = []
        excess = nil
        state = .empty
        notify()
    }

    /// The student's newest location in the list, if they have one.
    public func myLocation(accountKey: String) -> StudentInformation? {
        students.first { $0.uniqueKey == accountKey }
    }

    private func notify() {
        // Looked up one by one: an observer may cancel itself (or another) while being called.
        for id in observers.keys.sorted() {
            observers[id]?()
        }
    }
}

import Foundation
import Logging
import Places
import TouristStore

/// Names pins in the background: at once offline from the nearest city, then once online through Nominatim,
/// asked-for pins first; older pins at most `backgroundBudget` a run, so a big library is never bulk-geocoded
/// against the public server's policy. A failing Nominatim only pauses online naming (30 s doubling to 15 min).
public actor PinNamer {
    private let database: AppDatabase
    private let online: NominatimGeocoder?
    private let cities: @Sendable () -> NearestCities?
    private let logger: Logger
    private let backgroundBudget: Int

    private var worker: Task<Void, Never>?
    /// Set when asked again while working: the worker makes one more round.
    private var again = false
    private var wanted: [Int64] = []
    /// Pins with ids above this were dropped in this run: they are refined online without a budget.
    private var newestAtStart: Int64?
    private var backgroundAsked = 0
    private var pausedUntil: ContinuousClock.Instant?
    private var pause: Duration = PinNamer.firstPause
    /// Pins Nominatim could not be asked about in this run (a move between asking and answering, say).
    private var skipped: Set<Int64> = []

    static let firstPause = Duration.seconds(30)
    static let longestPause = Duration.seconds(15 * 60)
    static let batch = 2_000

    /// `online` nil names offline only. `cities` is called off the main thread, once per round.
    public init(database: AppDatabase, online: NominatimGeocoder?,
                cities: @escaping @Sendable () -> NearestCities? = { NearestCities.shared },
                backgroundBudget: Int = 50, logger: Logger = Logger(label: "virtual-tourist.names")) {
        self.database = database
        self.online = online
        self.cities = cities
        self.backgroundBudget = backgroundBudget
        self.logger = logger
    }

    /// Pins were added or moved: name what has no name yet.
    public func pinsChanged() {
        guard worker == nil else { again = true; return }
        worker = Task { await self.work() }
    }

    /// Someone is looking at this pin (its album is open): refine its name before the others'.
    public func want(_ pinID: Int64) {
        wanted.removeAll { $0 == pinID }
        wanted.insert(pinID, at: 0)
        skipped.remove(pinID)
        pinsChanged()
    }

    /// Waits for the current round to finish (tests; shutdown).
    public func idle() async {
        while let worker { await worker.value }
    }

    /// Stops naming; what was named stays.
    public func stop() {
        worker?.cancel()
        worker = nil
    }

    private func work() async {
        repeat {
            again = false
            nameOffline()
            await refineOnline()
        } while again && !Task.isCancelled
        worker = nil
    }

    // MARK: Offline

    private func nameOffline() {
        guard let cities = cities(), cities.count > 0 else { return }
        do {
            while !Task.isCancelled {
                let pins = try database.pinsToName(.offline, limit: Self.batch)
                if pins.isEmpty { return }
                let names = pins.compactMap { pin -> (Pin, String)? in
                    cities.name(latitude: pin.latitude, longitude: pin.longitude).map { (pin, $0) }
                }
                let named = try database.namePins(names.map { ($0.0.id!, $0.1, $0.0.latitude, $0.0.longitude) },
                                                  source: .offline)
                // A batch that named nothing (every pin moved meanwhile) ends the round rather than spin on it.
                if named == 0 || pins.count < Self.batch { return }
            }
        } catch {
            logger.error("Could not name pins: \(error.localizedDescription)")
        }
    }

    // MARK: Online

    private func refineOnline() async {
        guard let online else { return }
        if newestAtStart == nil { newestAtStart = (try? database.newestPinID()).flatMap { $0 } ?? 0 }
        while !Task.isCancelled {
            if let pausedUntil, ContinuousClock.now < pausedUntil { return }
            guard let pin = nextToRefine() else { return }
            let isOld = pin.id! <= (newestAtStart ?? 0) && !wanted.contains(pin.id!)
            wanted.removeAll { $0 == pin.id }
            if isOld { backgroundAsked += 1 }
            do {
                let place = try await online.reverse(latitude: pin.latitude, longitude: pin.longitude)
                // Nothing known there (open sea): the offline name stays, and the pin is not asked again.
                let name = place?.name ?? pin.placeName ?? cities()?.name(latitude: pin.latitude, longitude: pin.longitude)
                guard let name,
                      try database.namePin(id: pin.id!, name, source: .online, at: pin.latitude, pin.longitude)
                else { skipped.insert(pin.id!); continue }
                pause = Self.firstPause
            } catch is CancellationError {
                return
            } catch {
                // Unreachable, refused, junk: keep the offline name and try again later.
                // The kind of failure only: the message holds the pin's coordinates.
                let reason = switch error as? PlaceSearchError {
                case .geocoderUnreachable: "unreachable"
                case .geocoderFailed: "failed"
                default: "other"
                }
                logger.info("Online place names paused", metadata: ["seconds": "\(pause.components.seconds)",
                                                                     "reason": "\(reason)"])
                pausedUntil = ContinuousClock.now + pause
                if isOld { backgroundAsked -= 1 }
                wanted.insert(pin.id!, at: 0)
                let resume = pause
                pause = min(pause * 2, Self.longestPause)
                Task { [weak self] in
                    try? await Task.sleep(for: resume)
                    await self?.pinsChanged()
                }
                return
            }
        }
    }

    /// An asked-for pin first, then the newest without an online name (old ones within the budget).
    private func nextToRefine() -> Pin? {
        do {
            while let id = wanted.first {
                if let pin = try database.pin(id: id), pin.placeNameSource != .online, !skipped.contains(id) {
                    return pin
                }
                wanted.removeFirst()
            }
            guard let pin = try database.pinsToName(.online, limit: 1, skipping: skipped).first else { return nil }
            if pin.id! <= (newestAtStart ?? 0) && backgroundAsked >= backgroundBudget { return nil }
            return pin
        } catch {
            logger.error("Could not read the pins to name: \(error.localizedDescription)")
            return nil
        }
    }
}

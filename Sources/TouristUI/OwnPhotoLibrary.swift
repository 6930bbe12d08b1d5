import Foundation
import Logging
import OwnPhotos
import TouristStore

/// The user's own geotagged photos as the app knows them: whether they are wanted, which folders, the index (a cache
/// of what the files say, rebuilt when lost) and its background scans. Albums and My Places ask it; it tells them when
/// the index changed. Nothing here reads a photo on the main loop, and no photo is ever written.
@MainActor
final class OwnPhotoLibrary {
    /// Own photos this close to a pin are in its album (the album's radius: Flickr's search radius).
    let radiusKilometres: Double
    private(set) var settings: OwnPhotoSettings
    private let configFolder: URL
    private let indexURL: URL
    private let environment: [String: String]
    private let logger: Logger
    private var index: OwnPhotoIndex?
    private var indexer: OwnPhotoIndexer?
    private var scanning: Task<Void, Never>?
    /// What the index holds, after the last scan or refresh (nil before the first).
    private(set) var report: IndexReport?
    private(set) var isScanning = false
    private var observers: [Int: @MainActor () -> Void] = [:]
    private var nextObserver = 0

    init(paths: AppPaths, radiusKilometres: Double, environment: [String: String], logger: Logger) {
        configFolder = paths.configFolder
        indexURL = paths.cacheFolder.appendingPathComponent("own-photos.sqlite")
        self.radiusKilometres = radiusKilometres
        self.environment = environment
        self.logger = logger
        settings = OwnPhotoSettings.load(from: paths.configFolder)
    }

    var isEnabled: Bool { settings.enabled }
    /// The folders looked in: the chosen ones, or the Pictures folder.
    var folders: [URL] { settings.effectiveFolders(environment: environment) }
    /// The Pictures folder as xdg-user-dir finds it, if there is one.
    var picturesFolder: URL? { PicturesFolder.locate(environment: environment) }

    /// At start-up: opens the index at once (albums show what it holds) and brings it up to date a second later, once
    /// the window's first frames and the desktop's start-up chatter are over: a scan then takes no core they need.
    func start() {
        if settings.enabled { rescan(after: .seconds(1)) }
    }

    /// Turns own photos on (the album's invitation, Preferences) and looks in the folders.
    func turnOn() throws {
        try change { $0.enabled = true }
    }

    /// Turns them off: albums stop showing them, and the index, which holds where the user has been, is deleted.
    func turnOff() throws {
        try change { $0.enabled = false }
    }

    /// The folders to look in; empty means the Pictures folder.
    func setFolders(_ folders: [String]) throws {
        try change { $0.folders = folders }
    }

    private func change(_ edit: (inout OwnPhotoSettings) -> Void) throws {
        var changed = settings
        edit(&changed)
        guard changed != settings else { return }
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try changed.save(to: configFolder)
        settings = changed
        if changed.enabled { rescan() } else { close(deletingIndex: true) }
        notify()
    }

    /// Files or folders a monitor saw change: only they are read again.
    func refresh(paths: [String]) {
        guard settings.enabled, let indexer else { return }
        let folders = self.folders
        Task { [weak self] in
            do {
                let report = try await indexer.refresh(paths: paths, within: folders)
                self?.indexed(report, final: true)
            } catch is CancellationError {
            } catch {
                self?.logger.error("Could not re-read changed photos: \(error)")
            }
        }
    }

    /// The own photos within the album's radius of a place, newest first, dated in `years` where the album shows only
    /// those; none while own photos are off.
    func photos(nearLatitude latitude: Double, longitude: Double, takenIn years: ClosedRange<Int>?,
                limit: Int = 500) async -> [OwnPhoto] {
        guard settings.enabled, let index else { return [] }
        do {
            return try await index.photos(nearLatitude: latitude, longitude: longitude, radiusKilometres: radiusKilometres,
                                          takenIn: years, limit: limit)
        } catch is CancellationError {
            return [] // a newer question took its place
        } catch {
            logger.error("Could not read your photos' index: \(error)")
            return []
        }
    }

    /// How many own photos are near each place (My Places), less those its album no longer shows (`hidden`) and those
    /// outside the years it shows (`years`); empty while own photos are off.
    func counts(near places: [(id: Int64, latitude: Double, longitude: Double)],
                hidden: [Int64: Set<String>] = [:], years: [Int64: ClosedRange<Int>] = [:]) async -> [Int64: Int] {
        guard settings.enabled, let index, !places.isEmpty else { return [:] }
        return (try? await index.counts(near: places, radiusKilometres: radiusKilometres, excluding: hidden,
                                        takenIn: years)) ?? [:]
    }

    /// An album took a photo out or put it back: My Places counts again.
    func albumChanged() {
        notify()
    }

    /// An album could not decode this photo: it is unreadable from now on, as if indexing had found it so.
    func pictureFailed(_ path: String) {
        guard let index else { return }
        Task { [weak self, logger] in
            do {
                try await index.markUnreadable(path)
                let totals = try await index.report()
                guard let self, self.index === index else { return }
                if var report = self.report {
                    (report.photos, report.noPosition, report.unreadable, report.tooLarge) =
                        (totals.photos, totals.noPosition, totals.unreadable, totals.tooLarge)
                    self.report = report
                }
                self.notify()
            } catch {
                logger.error("Could not mark an unreadable photo in your photos' index: \(error)")
            }
        }
    }

    /// `body` runs whenever the index, the settings or an album's own photos changed; keep the token to stop.
    func observe(_ body: @escaping @MainActor () -> Void) -> Int {
        nextObserver += 1
        observers[nextObserver] = body
        return nextObserver
    }

    func stopObserving(_ token: Int) {
        observers[token] = nil
    }

    /// Quitting: a scan stops where it is (what it wrote is kept; the next start goes on from there).
    func stop() {
        scanning?.cancel()
        scanning = nil
    }

    private func rescan(after delay: Duration = .zero) {
        scanning?.cancel()
        let folders = self.folders
        let url = indexURL
        isScanning = true
        scanning = Task { [weak self, logger, index, indexer] in
            do {
                var opened = (index, indexer)
                if opened.0 == nil {
                    // Opening runs the index's migrations: off the main loop.
                    let index = try await Task.detached(priority: .utility) {
                        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                        return try OwnPhotoIndex(url: url)
                    }.value
                    opened = (index, OwnPhotoIndexer(index: index, logger: logger))
                    self?.index = opened.0
                    self?.indexer = opened.1
                    self?.notify()
                }
                guard let indexer = opened.1 else { return }
                if delay > .zero { try await Task.sleep(for: delay) }
                let started = Date()
                // The scan's batches, told on the main loop as they land.
                let (batches, batchLanded) = AsyncStream.makeStream(of: IndexReport.self, bufferingPolicy: .bufferingNewest(1))
                let following = Task { @MainActor [weak self] in
                    for await batch in batches { self?.indexed(batch, final: false) }
                }
                defer { batchLanded.finish(); following.cancel() }
                let report = try await indexer.scan(folders: folders) { batchLanded.yield($0) }
                logger.info("Own photos indexed in \(String(format: "%.2f", Date().timeIntervalSince(started))) s: \(report.photos) photos, read \(report.read), unchanged \(report.unchanged), removed \(report.removed), \(report.noPosition) without a position, \(report.unreadable) unreadable, \(report.tooLarge) too large")
                self?.indexed(report, final: true)
            } catch is CancellationError {
            } catch {
                logger.error("Could not index your photos: \(error)")
                self?.isScanning = false
                self?.notify()
            }
        }
    }

    private func indexed(_ report: IndexReport, final: Bool) {
        self.report = report
        if final { isScanning = false }
        notify()
    }

    private func close(deletingIndex: Bool) {
        scanning?.cancel()
        scanning = nil
        isScanning = false
        index = nil
        indexer = nil
        report = nil
        guard deletingIndex else { return }
        let url = indexURL
        Task.detached(priority: .utility) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
    }

    private func notify() {
        for observer in observers.values { observer() }
    }
}

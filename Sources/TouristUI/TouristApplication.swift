import CGtk
import FlickrClient
import Foundation
import GLibSwift
import MapView
import Logging
import Places
import TouristAlbums
import TouristPlaces
import TouristStore
import Translations

/// Everything the window needs, opened once in the primary instance.
struct AppContext {
    var paths: AppPaths
    var tileSource: TileSource
    /// Starts the map's tile fetching (the live one comes from main.swift).
    var tileFetcher: TileFetcherFactory
    /// Bad settings that were replaced by defaults, told to the user once the window is up.
    var configurationProblems: [String]
    var database: AppDatabase?
    var albums: AlbumService?
    /// The photo viewer's bigger sizes, fetched on demand; nil without a database.
    var largePhotos: LargePhotos?
    /// The album grid's pictures, so an album opens again without decoding its photos.
    var pictures: AlbumPictures?
    /// Names pins (offline, then online); nil without a database.
    var namer: PinNamer?
    /// The header bar's place search (cities offline, Nominatim on Enter).
    var placeFinder: PlaceFinder?
    /// The user's own geotagged photos (off until they turn them on); nil without a database.
    var ownPhotos: OwnPhotoLibrary?
    /// How far from a pin its album reaches (Flickr's search radius): also where an imported place is that pin.
    var albumRadiusKilometres: Double
    /// The map's place and the window's size as last saved (nil on the first start).
    var savedViewport: Viewport?
    var savedWindowState: WindowState?
    var startupError: String?
    var logger: Logger
}

/// The GtkApplication: single instance over D-Bus, app-wide actions and shortcuts, and the
/// start-up and shutdown work (open the store; save state on every way out).
@MainActor
public final class TouristApplication {
    private let desktop: DesktopApplication
    private let paths: AppPaths
    private let configuration: TouristConfiguration
    private let services: TouristServices
    private let keyResolver: FlickrAPIKeyResolver
    private let environment: [String: String]
    private let logger: Logger
    private var context: AppContext?
    private var mainWindow: MainWindow?
    private var watchdog: MainLoopWatchdog?
    private let preload: StorePreload
    private var imageFormatsRequested = false

    /// - parameter keyResolver: the Flickr key the search uses, changed in Preferences.
    /// - parameter environment: where the Pictures folder is found (XDG_CONFIG_HOME, HOME).
    public init(paths: AppPaths, configuration: TouristConfiguration, keyResolver: FlickrAPIKeyResolver,
                services: TouristServices, environment: [String: String], logger: Logger) {
        self.paths = paths
        self.environment = environment
        self.configuration = configuration
        self.services = services
        self.keyResolver = keyResolver
        self.logger = logger
        preload = StorePreload(paths: paths)
        FontLoading.start()
        for problem in configuration.problems { logger.warning("\(problem)") }
        desktop = DesktopApplication(id: AppInfo.id, programName: AppInfo.programName, name: AppInfo.name, opensFiles: true)
        desktop.application.connect(.startup) { [weak self] in self?.startup() }
        desktop.application.connect(.activate) { [weak self] in self?.activate() }
        // `virtual-tourist FILE` and "Open With": the window opens and asks whether to import the file's places.
        desktop.application.connect(.open) { [weak self] files in
            self?.activate()
            self?.mainWindow?.offerImport(of: files)
        }
        desktop.application.connect(.shutdown) { [weak self] in self?.shutdown() }
    }

    /// Runs the main loop; returns the exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        desktop.run(arguments: arguments)
    }

    // MARK: Life cycle

    private func startup() {
        Stylesheet.install()
        ImageDecoding.prepare()
        gtk_window_set_default_icon_name(AppInfo.id)
        desktop.addAction("quit", accels: ["<Primary>q"]) { [weak self] in self?.quit() }
        desktop.addAction("about") { [weak self] in AboutDialog.present(over: self?.mainWindow?.liveWindow) }
        desktop.addAction("preferences", accels: ["<Primary>comma"]) { [weak self] in self?.showPreferences() }
        desktop.setAccels("win.zoom-in", ["<Primary>plus", "<Primary>equal", "<Primary>KP_Add"])
        desktop.setAccels("win.zoom-out", ["<Primary>minus", "<Primary>KP_Subtract"])
        desktop.setAccels("win.show-help-overlay", ["<Primary>question"])
        desktop.setAccels("win.search", ["<Primary>f"])
        desktop.setAccels("win.places", ["F9"])
        desktop.setAccels("win.undo", ["<Primary>z"])
        desktop.setAccels("win.import-places", ["<Primary>o"])
        desktop.setAccels("win.export-places", ["<Primary><Shift>e"])
        desktop.setAccels("win.back", ["<Alt>Left", "Escape"])
        desktop.onTerminationSignals { [weak self] signal in
            self?.logger.info("Signal \(signal) received: saving and quitting")
            self?.quit()
        }
        context = openContext()
        if logger.logLevel <= .trace {
            let logger = self.logger
            watchdog = MainLoopWatchdog(thresholdMilliseconds: 5) { stall in
                let figure = { (milliseconds: Double) in String(format: "%.1f", milliseconds) }
                let waited = stall.waitedForCoreMilliseconds.map { ", waited for a core \(figure($0))" } ?? ""
                let breakdown = "main thread ran \(figure(stall.mainThreadCPUMilliseconds))\(waited) of the "
                    + "\(figure(stall.spanMilliseconds)) ms since the last tick"
                logger.trace("main loop stall \(figure(stall.milliseconds)) ms (\(breakdown))")
            }
        }
    }

    private func activate() {
        if mainWindow?.isOpen != true, let context {
            mainWindow = MainWindow(application: desktop.application, context: context)
            sweepOrphanedFilesSoon(context)
            context.ownPhotos?.start()
        }
        mainWindow?.present()
        loadImageFormatsSoon()
    }

    /// Loads the image decoders and GTK's icons after the first frames, so no photo waits on the main loop for one.
    private func loadImageFormatsSoon() {
        guard !imageFormatsRequested else { return }
        imageFormatsRequested = true
        Timeout.after(milliseconds: 250) { ImageLoaders.preload(["svg", "jpeg", "png"]) }
    }

    /// Removes photo files a kill left without a row, in the background after start-up: it grows with the library.
    private func sweepOrphanedFilesSoon(_ context: AppContext) {
        guard let database = context.database else { return }
        let logger = self.logger
        let pictures = context.pictures
        Timeout.after(milliseconds: 2000) {
            Task.detached(priority: .background) {
                pictures?.trim()
                do {
                    let removed = try database.removeOrphanedPhotoFiles()
                    if removed > 0 { logger.info("Removed \(removed) photo files no album names") }
                } catch {
                    logger.error("Could not tidy the photos folder: \(error.localizedDescription)")
                }
            }
        }
    }

    /// Runs after the window is gone: the window saved what it shows as it closed.
    private func shutdown() {
        context?.albums?.cancelAll()
        context?.ownPhotos?.stop()
    }

    private func showPreferences() {
        PreferencesDialog.present(over: mainWindow?.liveWindow, keyResolver: keyResolver,
                                  ownPhotos: context?.ownPhotos) { [weak self] in
            self?.mainWindow?.apiKeyChanged()
        }
    }

    /// Ctrl+Q and signals close the window as its close button does, so every way out saves; the app ends with it.
    private func quit() {
        if let mainWindow, mainWindow.isOpen {
            mainWindow.close()
        } else {
            desktop.quit()
        }
    }

    /// The scale factor of the screen the window opens on: downloads decode album thumbnails for it.
    private static func screenScale() -> Int32 {
        guard let display = gdk_display_get_default(),
              let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) else {
            return 1
        }
        return max(1, gdk_monitor_get_scale_factor(monitor))
    }

    private func openContext() -> AppContext {
        var context = AppContext(paths: paths, tileSource: configuration.tileSource, tileFetcher: services.tiles,
                                 configurationProblems: configuration.problems, database: nil,
                                 albumRadiusKilometres: configuration.flickr.radiusKilometers, startupError: nil,
                                 logger: logger)
        let loaded = preload.take()
        do {
            let database = try loaded.database.get()
            // This is the one running instance (startup runs only there): half-done downloads of a
            // killed run can go before any new one starts.
            try AppDatabase.emptyStagingFolder(paths: paths)
            context.database = database
            // Unreadable view state is not fatal: the first start's view and size stand in.
            do { context.savedViewport = try loaded.viewport.get() } catch {
                logger.error("Could not read the saved map position: \(error.localizedDescription)")
            }
            context.savedWindowState = try? loaded.windowState.get()
            logger.debug("Opened \(paths.databaseURL.path)")
            // A photo's grid picture is kept from its download's decode as its file comes into the album.
            let pictures = AlbumPictures(folder: paths.thumbnailsFolder,
                                         photoPath: { database.photoFileURL(relativePath: $0).path })
            context.pictures = pictures
            let downloader = services.makeDownloader(paths.stagingFolder,
                                                     ImageDecoding.photoValidator(side: PhotoTile.side * Self.screenScale(),
                                                                                  pictures: pictures))
            let albums = AlbumService(store: database, searcher: services.flickr, downloader: downloader,
                                      albumSize: configuration.flickr.albumSize, logger: logger)
            context.albums = albums
            let largeFolder = paths.largePhotosFolder
            let largeDecodes = LargePhotoDecodes()
            let largeDownloader = services.makeDownloader(LargePhotoCache.stagingFolder(in: largeFolder),
                                                          ImageDecoding.largePhotoValidator(
                                                            shorterSide: PhotoViewer.largestShorterSide,
                                                            keepingIn: largeDecodes))
            context.largePhotos = LargePhotos(cache: LargePhotoCache(folder: largeFolder, downloader: largeDownloader,
                                                                     logger: logger), decodes: largeDecodes)
            // One geocoder for names and search: one User-Agent, one limit of a request a second (shared anyway).
            let geocoder = services.geocoder
            context.namer = PinNamer(database: database, online: geocoder, logger: logger)
            context.placeFinder = PlaceFinder(offline: OfflineCities(), online: geocoder, logger: logger)
            context.ownPhotos = OwnPhotoLibrary(paths: paths, radiusKilometres: configuration.flickr.radiusKilometers,
                                                environment: environment, logger: logger)
        } catch {
            logger.error("Could not open \(paths.databaseURL.path): \(error.localizedDescription)")
            // Translators: shown when the app cannot open its database; %1$@ says why, %2$@ is a folder's path.
            context.startupError = formatted(tr("%1$@\n\nYour places are kept in %2$@."),
                                          error.localizedDescription, paths.dataFolder.path)
        }
        return context
    }
}

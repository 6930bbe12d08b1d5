import CGtk
import Foundation
import GLibSwift
import Layouts
import Logging
import MapView
import Places
import TouristPlaces
import TouristStore
import Translations

/// The application window: a header bar over a stack of pages (the map now, the album to come).
@MainActor
final class MainWindow {
    static let defaultSize = (width: 1000, height: 700)

    private let window: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let header: WindowHeader
    private let stack: UnsafeMutablePointer<GtkWidget>
    let notification = InAppNotification()
    private(set) var mapPage: MapWidget?
    private(set) var pins: PinsController?
    private var namer: PinNamer?
    /// The pin whose album is open.
    private var openMark: PinMark?
    private(set) var albumPage: AlbumPage?
    private var search: PlaceSearch?
    private var places: PlacesSidebar?
    private var exchange: PlaceExchange?
    /// Re-reads the user's own photos that change while the app runs.
    private var ownPhotoWatch: OwnPhotoWatch?
    private let store: (any ViewStateStore)?
    private let viewportKeeper: ViewportKeeper?
    private let logger: Logger
    private var backAction: OpaquePointer?
    private var zoomInAction: OpaquePointer?
    private var zoomOutAction: OpaquePointer?

    private var sizeKeeper: WindowSizeKeeper?

    init(application: UnsafeMutablePointer<GtkApplication>, context: AppContext) {
        logger = context.logger
        store = context.database
        viewportKeeper = context.database.map { ViewportKeeper(store: $0, logger: context.logger) }

        let layout = Layouts.builder("main-window")
        window = layout.object("window")
        lifetime = WidgetLifetime(window)
        gtk_window_set_application(window.cast(), application)
        header = WindowHeader(layout: layout)
        stack = layout.object("pages")
        let overlay = layout.object("overlay", as: GtkWidget.self)
        gtk_overlay_add_overlay(overlay.cast(), notification.root)
        let mapSlot = layout.object("map-page", as: GtkWidget.self)

        if let database = context.database, let albums = context.albums, let pictures = context.pictures {
            let page = MapWidget(tileSource: context.tileSource, tileCacheFolder: context.paths.tileCacheFolder,
                                 userAgent: AppInfo.userAgent, fetcher: context.tileFetcher, logger: context.logger)
            mapPage = page
            // My Places slides in beside the map.
            let sidebar = PlacesSidebar(store: database)
            places = sidebar
            sidebar.ownPhotos = context.ownPhotos
            ownPhotoWatch = context.ownPhotos.map { OwnPhotoWatch(library: $0, logger: context.logger) }
            gtk_box_pack_start(mapSlot.cast(), sidebar.root, 0, 0, 0)
            gtk_box_pack_start(mapSlot.cast(), page.root, 1, 1, 0)
            let album = AlbumPage(store: database, albums: albums, largePhotos: context.largePhotos,
                                  pictures: pictures, notification: notification, logger: context.logger)
            album.onShowPreferences = { [weak self] in self?.showPreferences() }
            if let library = context.ownPhotos {
                album.attach(AlbumOwnPhotos(library: library, store: database, notification: notification, logger: context.logger))
            }
            albumPage = album
            gtk_stack_add_named(stack.cast(), album.root, "album")
            let pins = PinsController(map: page.map, store: database, albums: albums, namer: context.namer,
                                      notification: notification, logger: context.logger)
            pins.onDeleted = { [weak album] (pinID: Int64) in album?.forget(pinID: pinID) }
            pins.onNamesChanged = { [weak self] in self?.showAlbumTitle() }
            namer = context.namer
            pins.onOpen = { [weak self] mark in self?.openAlbum(mark) }
            pins.onHover = { [weak album] mark in album?.prepare(pinID: mark.key) }
            page.pinLayer = pins.pinLayer
            self.pins = pins
            sidebar.untitled = { [weak pins] place in
                pins?.title(of: place.id, latitude: place.latitude, longitude: place.longitude)
                    ?? CoordinateFormat.string(latitude: place.latitude, longitude: place.longitude)
            }
            sidebar.onSelect = { [weak self] place in self?.centre(on: place) }
            sidebar.onOpen = { [weak self] place in
                self?.openAlbum(PinMark(key: place.id, latitude: place.latitude, longitude: place.longitude))
            }
            sidebar.onDelete = { [weak pins] place in
                pins?.delete(PinMark(key: place.id, latitude: place.latitude, longitude: place.longitude))
            }
            let exchange = PlaceExchange(store: database, notification: notification,
                                         duplicateRadiusMetres: context.albumRadiusKilometres * 1000, logger: context.logger)
            exchange.parent = { [weak self] in self?.liveWindow }
            exchange.onImported = { [weak self] points in self?.showImported(points) }
            self.exchange = exchange
            if let finder = context.placeFinder {
                let search = PlaceSearch(finder: finder)
                search.onChoose = { [weak self] place in self?.show(place) }
                search.onFinished = { [weak page] in if let page { gtk_widget_grab_focus(page.map.widget) } }
                search.onTextChanged = { [weak sidebar = places] text in sidebar?.filter(text) }
                header.addToMapBar(search.entry)
                self.search = search
            }
        } else {
            gtk_widget_destroy(mapSlot) // no store, no map: the error page is the only one
            let failure = StatusPage(icon: "dialog-error-symbolic", title: tr("Your Places Could Not Be Opened"),
                                     description: context.startupError ?? tr("Unknown error."))
            gtk_stack_add_named(stack.cast(), failure.root, "error")
        }

        installActions()
        installHelpOverlay()
        sizeKeeper = WindowSizeKeeper(window: window, saved: context.savedWindowState, store: store, logger: logger)
        connectWindowSignals()
        restoreViewport(context.savedViewport)

        gtk_widget_show_all(overlay)
        if mapPage != nil { gtk_stack_set_visible_child_name(stack.cast(), "map") }
        if !context.configurationProblems.isEmpty {
            notification.show(context.configurationProblems.joined(separator: " "), seconds: 10)
        }
    }

    func present() {
        guard lifetime.isAlive else { return }
        gtk_window_present(window.cast())
    }

    /// Closes the window (its close button, Ctrl+Q, a signal): it disappears at once, and is
    /// destroyed once the map has let go of its downloads; what must survive is saved as it goes.
    func close() {
        guard lifetime.isAlive, !isClosing else { return }
        isClosing = true
        gtk_widget_hide(window)
        let window = self.window
        guard let mapPage else { return gtk_widget_destroy(window) }
        mapPage.cancelTileDownloads { [lifetime] in
            if lifetime.isAlive { gtk_widget_destroy(window) }
        }
    }

    private var isClosing = false

    var isOpen: Bool { lifetime.isAlive }

    /// The window as a parent for dialogs, while it exists.
    var liveWindow: UnsafeMutablePointer<GtkWidget>? { lifetime.isAlive ? window : nil }

    // MARK: Pages

    private func openAlbum(_ mark: PinMark) {
        guard let albumPage else { return }
        if let namer { Task { await namer.want(mark.key) } } // its best name first
        // The page comes on screen whole (its photos read from disk), or after 100 ms as it is; only the album
        // asked for last, and never after the map came back (the page drops a wait it no longer needs).
        albumPage.ownPhotos?.show(pinID: mark.key, latitude: mark.latitude, longitude: mark.longitude)
        albumPage.show(pinID: mark.key) { [weak self] in
            guard let self, self.lifetime.isAlive else { return }
            self.presentAlbum(mark)
        }
    }

    private func presentAlbum(_ mark: PinMark) {
        guard let albumPage else { return }
        openMark = mark
        showAlbumTitle()
        header.showAlbumBar()
        gtk_stack_set_visible_child_name(stack.cast(), "album")
        albumPage.focusPhotos() // the keyboard's way into the album: arrows, Enter, Delete
        if let backAction { SimpleAction.setEnabled(backAction, true) }
    }

    /// The open album's place name, with its coordinates below; the coordinates alone until it is named.
    private func showAlbumTitle() {
        guard let mark = openMark, let albumPage else { return }
        let coordinates = CoordinateFormat.string(latitude: mark.latitude, longitude: mark.longitude)
        let name = pins?.name(of: mark.key)
        header.setAlbumTitle(name ?? coordinates, subtitle: name == nil ? tr("Photo Album") : coordinates)
        albumPage.setPlaceName(name ?? coordinates)
    }

    private func showMap() {
        openMark = nil
        albumPage?.hide()
        gtk_stack_set_visible_child_name(stack.cast(), "map")
        header.showMapBar()
        if let places, places.isOpen { places.open() } // the keyboard goes back to the list
        // Escape and Alt+← are the search's and the map's again.
        if let backAction { SimpleAction.setEnabled(backAction, false) }
    }

    /// A place was selected in My Places: the map centres on it, close enough to see it.
    private func centre(on place: PlaceSummary) {
        guard let mapPage else { return }
        mapPage.show(MapViewport(latitude: place.latitude, longitude: place.longitude,
                                 zoom: max(mapPage.viewport.zoom, 11)))
    }

    /// F9 and the header bar's button: My Places opens (with the keyboard) or closes.
    private func togglePlaces() {
        guard let places else { return }
        if visiblePageName != "map" { showMap() }
        if places.isOpen && places.hasFocus {
            places.close()
            if let mapPage { gtk_widget_grab_focus(mapPage.map.widget) }
        } else {
            places.open()
        }
    }

    /// A search result was chosen: the map flies there, and the note under the header bar offers a pin.
    private func show(_ place: Place) {
        guard let mapPage else { return }
        if visiblePageName != "map" { showMap() }
        mapPage.show(MapViewport(latitude: place.latitude, longitude: place.longitude,
                                 zoom: place.source == .offlineCities ? 11 : 15))
        gtk_widget_grab_focus(mapPage.map.widget)
        notification.show(place.name, actionLabel: tr("Drop Pin Here"), seconds: 12) { [weak self] in
            self?.pins?.dropPin(latitude: place.latitude, longitude: place.longitude)
        }
    }

    /// Places just imported: the map shows them all.
    private func showImported(_ points: [(latitude: Double, longitude: Double)]) {
        guard let mapPage else { return }
        if visiblePageName != "map" { showMap() }
        mapPage.show(around: points)
    }

    /// Files given on the command line or by "Open With".
    func offerImport(of files: [URL]) {
        exchange?.offerImport(of: files)
    }

    private func setZoomEnabled(canZoomIn: Bool, canZoomOut: Bool) {
        if let zoomInAction { SimpleAction.setEnabled(zoomInAction, canZoomIn) }
        if let zoomOutAction { SimpleAction.setEnabled(zoomOutAction, canZoomOut) }
    }

    var visiblePageName: String {
        gtk_stack_get_visible_child_name(stack.cast()).map { String(cString: $0) } ?? ""
    }

    /// The window is being destroyed, however it was closed (its close button, Ctrl+Q, a signal):
    /// queued writes land and what was last seen is saved. Nothing here reads a widget; the map
    /// position and the window size were recorded as they changed.
    private func windowDestroyed() {
        pins?.finishPendingWork()
        albumPage?.finishPendingDeletions()
        viewportKeeper?.flush()
        sizeKeeper?.flush()
    }

    // MARK: Viewport

    /// - parameter saved: as the store had it at start-up (nil on the first start: the world).
    private func restoreViewport(_ saved: Viewport?) {
        guard let mapPage, let viewportKeeper else { return }
        mapPage.show(MapViewport(saved ?? .world))
        viewportKeeper.markRestored(Viewport(mapPage.viewport))
        mapPage.onViewportChanged = { [weak viewportKeeper] viewport in viewportKeeper?.viewportChanged(Viewport(viewport)) }
        mapPage.onZoomLimitsChanged = { [weak self] canZoomIn, canZoomOut in
            self?.setZoomEnabled(canZoomIn: canZoomIn, canZoomOut: canZoomOut)
        }
        mapPage.onZoomLimitsChanged?(mapPage.canZoomIn, mapPage.canZoomOut)
        viewportKeeper.onSaveError = { [weak self] message in
            // Translators: %@ says why, e.g. "The disk is full."
            self?.notification.show(formatted(tr("Could not save the map position. %@"), message))
        }
    }

    // MARK: Window

    private func connectWindowSignals() {
        window.connect(.delete) { [weak self] _ in
            self?.close()
            return true // close() destroys the window when the map is ready for it
        }
        lifetime.onDestroy { [weak self] in self?.windowDestroyed() }
    }

    // MARK: Actions

    private func installActions() {
        // The zoom actions follow the map's zoom limits whichever page is shown, and do nothing on the album's:
        // disabling them as an album opened restyled the map's zoom buttons in the album's opening frame.
        zoomInAction = SimpleAction.add("zoom-in", to: window) { [weak self] in
            guard let self, self.visiblePageName == "map" else { return }
            self.mapPage?.zoomIn()
        }
        zoomOutAction = SimpleAction.add("zoom-out", to: window) { [weak self] in
            guard let self, self.visiblePageName == "map" else { return }
            self.mapPage?.zoomOut()
        }
        // Back is enabled only while the album is shown: its keys (Escape, Alt+←) belong to the map's page otherwise.
        backAction = SimpleAction.add("back", to: window) { [weak self] in self?.showMap() }
        SimpleAction.add("places", to: window) { [weak self] in self?.togglePlaces() }
        SimpleAction.add("undo", to: window) { [weak self] in self?.notification.undo() }
        let importAction = SimpleAction.add("import-places", to: window) { [weak self] in self?.exchange?.chooseFileToImport() }
        let exportAction = SimpleAction.add("export-places", to: window) { [weak self] in self?.exchange?.chooseFileToExport() }
        for action in [importAction, exportAction] { SimpleAction.setEnabled(action, exchange != nil) } // no store, no places
        SimpleAction.add("search", to: window) { [weak self] in
            guard let self, let search = self.search else { return }
            if self.visiblePageName != "map" { self.showMap() }
            search.focus()
        }
        if let backAction { SimpleAction.setEnabled(backAction, false) }
    }

    /// The shortcuts window (shortcuts.ui) is built when first asked for, so start-up does not pay for parsing it;
    /// GTK keeps it, a toplevel, once its layout is released.
    private func installHelpOverlay() {
        SimpleAction.add("show-help-overlay", to: window) { [weak self] in
            guard let self, self.lifetime.isAlive else { return }
            if gtk_application_window_get_help_overlay(self.window.cast()) == nil {
                let shortcuts = Layouts.builder("shortcuts").object("shortcuts", as: GtkShortcutsWindow.self)
                gtk_application_window_set_help_overlay(self.window.cast(), shortcuts)
            }
            if let overlay = gtk_application_window_get_help_overlay(self.window.cast()) {
                gtk_window_present(overlay.cast())
            }
        }
    }

    /// A new Flickr key was saved: an album waiting for one tries again.
    func apiKeyChanged() {
        albumPage?.retryAfterKeyChange()
    }

    private func showPreferences() {
        g_action_group_activate_action(OpaquePointer(gtk_window_get_application(window.cast())), "preferences", nil)
    }
}

extension MapViewport {
    init(_ stored: Viewport) { self.init(latitude: stored.latitude, longitude: stored.longitude, zoom: stored.zoom) }
}

extension Viewport {
    init(_ shown: MapViewport) { self.init(latitude: shown.latitude, longitude: shown.longitude, zoom: shown.zoom) }
}

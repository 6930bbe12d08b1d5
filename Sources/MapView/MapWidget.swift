import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import Logging
import MapTiles
import Translations

/// A centre and zoom level of the map.
public struct MapViewport: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var zoom: Int

    public init(latitude: Double, longitude: Double, zoom: Int) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
    }

    /// The whole world, as a first start shows it.
    public static let world = MapViewport(latitude: 20, longitude: 0, zoom: 2)
}

/// The osm-gps-map widget with zoom buttons and the OpenStreetMap credit over it, as both apps show
/// it. The zoom buttons fire the window actions `win.zoom-in` and `win.zoom-out`, which the window
/// owns (with their shortcuts) and forwards to `zoomIn()` / `zoomOut()`.
@MainActor
public final class MapWidget {
    public static let minZoom = 2
    public static let maxZoom = 19

    public let root: UnsafeMutablePointer<GtkWidget>
    public let map: UnsafeMutablePointer<OsmGpsMap>
    private let lifetime: WidgetLifetime
    private let zoomInButton: UnsafeMutablePointer<GtkWidget>
    private let zoomOutButton: UnsafeMutablePointer<GtkWidget>
    private let tiles: TileKeeper
    let tileLayer: TileLayer

    /// Called on every centre or zoom change (many times while panning).
    public var onViewportChanged: ((MapViewport) -> Void)?

    /// `userAgent` names the app to the tile server (its usage policy asks apps to identify themselves).
    /// `zoomButtons`: false where no window provides the zoom actions (a map inside a dialog).
    /// `basemap` finds the built-in world map drawn where no tile can be had (called off the main thread).
    /// `fetcher` starts the fetching of the map's tiles (the app's main.swift makes the live one).
    public init(tileSource: TileSource, tileCacheFolder: URL, userAgent: String, fetcher: TileFetcherFactory,
                logger: Logger, zoomButtons: Bool = true,
                basemap: @escaping @Sendable () -> URL? = { Basemap.locate() }) {
        let cache = tileCacheFolder.appendingPathComponent(tileSource.cacheFolderName, isDirectory: true)
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // The app fetches the tiles (TileKeeper) and draws them (TileLayer); osm-gps-map keeps the view and the
        // input. Its tile folder is /dev/null, so each tile it would draw costs it one failed open() and a white
        // square (its own drawing decoded every tile in view on each zoom step, on the main loop).
        map = vt_osm_gps_map_new(tileSource.template, "/dev/null", userAgent,
                                 Int32(Self.minZoom), Int32(Self.maxZoom))
        // Missing-tile warnings are routine (offline, slow server): keep them out of the terminal.
        GLibLogRouting.route(domain: "OsmGpsMap", to: logger, warningLevel: .debug)
        // libsoup 2 is loaded only for osm-gps-map, whose retry of a failed tile trips a libsoup
        // assertion once per tile when offline: noise for users, kept for `VIRTUAL_TOURIST_LOG=debug`.
        GLibLogRouting.route(domain: "libsoup", to: logger, warningLevel: .debug, criticalLevel: .debug)
        lifetime = WidgetLifetime(map)
        tiles = TileKeeper(map: map, source: tileSource, cacheFolder: cache, userAgent: userAgent,
                           maxZoom: Self.maxZoom, basemap: basemap, fetcher: fetcher, logger: logger)
        tileLayer = TileLayer(map: map, cache: TileCache(folder: cache)) // the first layer: under the pins
        tiles.onTileChanged = { [tileLayer] tile in tileLayer.tileChanged(tile) }
        gtk_widget_set_hexpand(map.widget, 1)
        gtk_widget_set_vexpand(map.widget, 1)
        Widgets.setAccessibleName(map, tr("Map"))

        root = gtk_overlay_new()
        gtk_container_add(root.container, map.widget)

        zoomInButton = Widgets.iconButton(icon: "zoom-in-symbolic", accessibleName: tr("Zoom In"),
                                          tooltip: tr("Zoom In (Ctrl++)"))
        zoomOutButton = Widgets.iconButton(icon: "zoom-out-symbolic", accessibleName: tr("Zoom Out"),
                                           tooltip: tr("Zoom Out (Ctrl+−)"))
        gtk_actionable_set_action_name(OpaquePointer(zoomInButton), "win.zoom-in")
        gtk_actionable_set_action_name(OpaquePointer(zoomOutButton), "win.zoom-out")
        let controls = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        Widgets.addStyleClass(controls, "linked")
        Widgets.addStyleClass(controls, "map-controls")
        gtk_container_add(controls.container, zoomInButton)
        gtk_container_add(controls.container, zoomOutButton)
        gtk_widget_set_halign(controls, GTK_ALIGN_END)
        gtk_widget_set_valign(controls, GTK_ALIGN_START)
        Widgets.setMargins(controls, 12)
        if zoomButtons {
            gtk_overlay_add_overlay(root.cast(), controls)
        } else {
            g_object_ref_sink(UnsafeMutableRawPointer(controls)) // never shown: sink and destroy, or it leaks
            gtk_widget_destroy(controls)
            g_object_unref(UnsafeMutableRawPointer(controls))
        }

        let attribution = gtk_label_new(nil)!
        // Translators: Pango markup; keep the <a href="…">OpenStreetMap</a> link as it is and translate "contributors".
        gtk_label_set_markup(attribution.cast(),
                             tr("© <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"))
        Widgets.addStyleClass(attribution, "map-attribution")
        gtk_widget_set_halign(attribution, GTK_ALIGN_END)
        gtk_widget_set_valign(attribution, GTK_ALIGN_END)
        gtk_overlay_add_overlay(root.cast(), attribution)
        gtk_overlay_add_overlay(root.cast(), tiles.note)

        map.connect(.changed) { [weak self] in self?.mapChanged() }
        if logger.logLevel <= .trace { measureFrames(logger) }
    }

    /// Logs how long each map frame takes to draw (tiles and pins), for `bench/` and diagnosis.
    private func measureFrames(_ logger: Logger) {
        var started: UInt64 = 0
        map.connect(.draw) { _ in
            started = DispatchTime.now().uptimeNanoseconds
            return false
        }
        map.connect(.draw, after: true) { [weak self] _ in
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            let pins = self?.pinLayer?.lastFramePinsDrawn ?? 0
            let markers = self?.pinLayer?.visibleClusterCounts.count ?? 0
            logger.trace("frame \(String(format: "%.3f", milliseconds)) ms, \(pins) pins drawn, \(markers) cluster markers")
            return false
        }
    }

    /// Set by the window once pins are wired, for frame statistics.
    public weak var pinLayer: PinLayer?

    /// The centre and zoom the map shows now (the last one it showed, once it is destroyed).
    public var viewport: MapViewport {
        guard lifetime.isAlive else { return lastViewport }
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        return MapViewport(latitude: latitude, longitude: longitude, zoom: Int(zoom))
    }

    private var lastViewport = MapViewport.world

    public func show(_ viewport: MapViewport) {
        guard lifetime.isAlive else { return }
        let latitude = min(max(viewport.latitude, -85.0511), 85.0511)
        let longitude = min(max(viewport.longitude, -180), 180)
        let zoom = min(max(viewport.zoom, Self.minZoom), Self.maxZoom)
        osm_gps_map_set_center_and_zoom(map, Float(latitude), Float(longitude), Int32(zoom))
    }

    /// Shows every one of `points`, as close as the window allows but no closer than street level.
    public func show(around points: [(latitude: Double, longitude: Double)]) {
        guard lifetime.isAlive, let first = points.first else { return }
        if points.count == 1 { return show(MapViewport(latitude: first.latitude, longitude: first.longitude, zoom: 13)) }
        let latitudes = points.map(\.latitude), longitudes = points.map(\.longitude)
        // A fifth of the span around the points, so pins (drawn above their point) and the edges' ones show whole.
        let south = latitudes.min()!, north = latitudes.max()!, west = longitudes.min()!, east = longitudes.max()!
        let latitudeMargin = max((north - south) * 0.2, 0.01), longitudeMargin = max((east - west) * 0.2, 0.01)
        osm_gps_map_zoom_fit_bbox(map, Float(max(south - latitudeMargin, -85)), Float(min(north + latitudeMargin * 1.5, 85)),
                                  Float(max(west - longitudeMargin, -180)), Float(min(east + longitudeMargin, 180)))
        if viewport.zoom > 15 { show(MapViewport(latitude: viewport.latitude, longitude: viewport.longitude, zoom: 15)) }
    }

    public var canZoomIn: Bool { viewport.zoom < Self.maxZoom }
    public var canZoomOut: Bool { viewport.zoom > Self.minZoom }

    public func zoomIn() { if lifetime.isAlive { osm_gps_map_zoom_in(map) } }
    public func zoomOut() { if lifetime.isAlive { osm_gps_map_zoom_out(map) } }

    public var tilesQueued: Int { lifetime.isAlive ? Int(vt_osm_gps_map_tiles_queued(map)) : 0 }

    /// Cancels the tile downloads and calls `done` once libsoup has reported every one of them.
    /// (The app now fetches tiles itself and osm-gps-map's downloading is off, so this is normally at once.)
    ///
    /// osm-gps-map frees its queue of downloads when it is destroyed, but libsoup delivers the
    /// cancellations a main-loop turn later, into that freed table (a crash). So the window waits
    /// for them before it destroys the map; a second at most.
    public func cancelTileDownloads(then done: @escaping @MainActor () -> Void) {
        guard lifetime.isAlive, tilesQueued > 0 else { return done() }
        osm_gps_map_download_cancel_all(map)
        let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
        func check() {
            if tilesQueued == 0 || DispatchTime.now().uptimeNanoseconds > deadline { return done() }
            Timeout.after(milliseconds: 10) { check() }
        }
        check()
    }

    /// Zoom actions follow the zoom level; the window owns the actions, so it passes this in.
    public var onZoomLimitsChanged: ((_ canZoomIn: Bool, _ canZoomOut: Bool) -> Void)?

    private func mapChanged() {
        let current = viewport // one read of the widget's properties per change
        lastViewport = current
        onZoomLimitsChanged?(current.zoom < Self.maxZoom, current.zoom > Self.minZoom)
        onViewportChanged?(current)
    }
}

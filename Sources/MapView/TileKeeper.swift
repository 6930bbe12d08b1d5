import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import Logging
import MapTiles
import Translations

/// Keeps the tiles the map shows on disk (`TileLayer` draws them; osm-gps-map's own tiles are off), so the app
/// knows when the tile server cannot be reached, revalidates tiles once stale by the server's caching headers (a week
/// at least), and puts the built-in world basemap where no tile can be had. Says "Offline — showing saved map"
/// while fetches fail.
@MainActor
final class TileKeeper {
    static var offlineText: String { tr("Offline — showing saved map") }
    /// Retries while offline start here and double up to `longestRetry`.
    static let firstRetry: UInt32 = 2_000
    static let longestRetry: UInt32 = 60_000

    /// The quiet note over the map; hidden unless offline.
    let note: UnsafeMutablePointer<GtkWidget>
    private let map: UnsafeMutablePointer<OsmGpsMap>
    private let logger: Logger
    private var loader: (any TileFetching)!
    /// Holds the map while the keeper lives; off once the map is destroyed (no redraw may touch it then).
    private let lifetime: WidgetLifetime
    private var offline = false
    private var update: Timeout?
    private var askedOnce = false
    private var retry: Timeout?
    private var retryDelay = TileKeeper.firstRetry
    /// Called when a tile file was written (a tile arrived, or the basemap stood in for one).
    var onTileChanged: ((TileID) -> Void)?

    init(map: UnsafeMutablePointer<OsmGpsMap>, source: TileSource, cacheFolder: URL, userAgent: String,
         maxZoom: Int, basemap: @escaping @Sendable () -> URL?, fetcher: TileFetcherFactory, logger: Logger) {
        self.map = map
        lifetime = WidgetLifetime(map)
        self.logger = logger
        note = gtk_label_new(Self.offlineText)!
        Widgets.addStyleClass(note, "map-offline-note")
        gtk_widget_set_halign(note, GTK_ALIGN_START)
        gtk_widget_set_valign(note, GTK_ALIGN_END)
        gtk_widget_set_no_show_all(note, 1) // shown only while offline, whatever shows the window

        let configuration = TileLoader.Configuration(
            template: TileURLTemplate(source.template, maxZoom: maxZoom), cache: TileCache(folder: cacheFolder),
            basemap: basemap, userAgent: userAgent)
        loader = fetcher(configuration) { [weak self] event in
            Task { @MainActor in self?.handle(event) }
        }
        vt_osm_gps_map_set_auto_download(map, 0)
        map.connect(.changed) { [weak self] in self?.scheduleUpdate() }
        map.connect(.sizeAllocate) { [weak self] _ in self?.scheduleUpdate() }
        lifetime.onDestroy { [weak self] in self?.stop() }
    }

    /// The tiles in view, plus one ring around them, nearest the centre first.
    private func tilesInView() -> [TileID] {
        var originX: Int32 = 0, originY: Int32 = 0
        vt_osm_gps_map_get_origin(map, &originX, &originY)
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        return TileID.covering(originX: Int(originX), originY: Int(originY),
                               width: Int(gtk_widget_get_allocated_width(map.widget)),
                               height: Int(gtk_widget_get_allocated_height(map.widget)), zoom: Int(zoom))
    }

    /// Many changes while panning become one request list a moment later; the first one (the map's first
    /// size) goes out at once, so the first tiles are not slower than osm-gps-map's own downloading was.
    private func scheduleUpdate() {
        guard lifetime.isAlive, update == nil else { return }
        update = Timeout.after(milliseconds: askedOnce ? 30 : 0) { [weak self] in
            guard let self else { return }
            self.update = nil
            guard self.lifetime.isAlive else { return }
            let tiles = self.tilesInView()
            self.askedOnce = self.askedOnce || !tiles.isEmpty
            self.loader.show(tiles, probe: false)
        }
    }

    private func handle(_ event: TileLoader.Event) {
        guard lifetime.isAlive else { return }
        switch event {
        case .arrived(let tile, _), .standIn(let tile):
            onTileChanged?(tile)
        case .renewed:
            break // the same picture, fresh again: nothing to redraw
        case .unreachable(let reason):
            logger.notice("Tile server unreachable (\(reason)); showing saved tiles and the world basemap")
            setOffline(true)
        case .reachable:
            logger.notice("Tile server reachable again")
            setOffline(false)
        case .basemapFailed(let problem):
            logger.error("\(problem)")
        }
    }

    private func setOffline(_ value: Bool) {
        guard value != offline else { return }
        offline = value
        if value {
            gtk_widget_show(note)
            retryDelay = Self.firstRetry
            scheduleRetry()
        } else {
            gtk_widget_hide(note)
            retry?.cancel()
            retry = nil
        }
    }

    /// While offline, asks for the tiles in view again now and then (fewer and fewer times), so the map notices
    /// when the network comes back without the user moving it.
    private func scheduleRetry() {
        retry = Timeout.after(milliseconds: retryDelay) { [weak self] in
            guard let self, self.lifetime.isAlive, self.offline else { return }
            self.retryDelay = min(self.retryDelay * 2, Self.longestRetry)
            self.loader.show(self.tilesInView(), probe: true)
            self.scheduleRetry()
        }
    }

    private func stop() {
        loader.stop()
        update?.cancel()
        retry?.cancel()
    }
}

import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import MapTiles

/// Draws the map's tiles from the tile folder, in place of osm-gps-map's own tile drawing.
///
/// osm-gps-map keeps in memory only the tiles of its last redraw, so every zoom step decoded each tile in view
/// again on the main loop, and every redraw converted each one to a cairo surface and sent it to the display.
/// Here a tile is decoded once, on a background thread, and sent to the display once, a few per idle turn; a
/// frame then only composes surfaces the display already holds. A tile not ready yet is drawn from its nearest
/// ready ancestor (zooming in) or its children (zooming out), so the map is never white while tiles decode.
@MainActor
final class TileLayer {
    /// Tiles sent to the display per idle turn: each costs ~0.3 ms on the main loop.
    static let uploadsPerTurn = 3
    /// Ancestors looked at for a stand-in, at most this many levels up.
    static let ancestorLevels = 6

    private let map: UnsafeMutablePointer<OsmGpsMap>
    private let lifetime: WidgetLifetime
    private let cache: TileCache

    /// Tiles the display holds, with the frame that last drew them (the least recently drawn go first).
    private var shown: [TileID: (surface: OpaquePointer, lastDrawn: UInt64)] = [:]
    private var frame: UInt64 = 0
    private var capacity = 64
    /// Missing from `shown` (or outdated) and worth decoding, most wanted first.
    private var wanted: [TileID] = []
    private var decoding: TileID?
    /// Decoded, waiting to be sent to the display.
    private var decoded: [(TileID, DecodedTile)] = []
    private var upload: Timeout?
    /// No file (yet): not decoded again until the keeper says the tile changed.
    private var absent: Set<TileID> = []
    /// Shown, but the file has changed since (a real tile over a stand-in, a refreshed stale one).
    private var outdated: Set<TileID> = []
    /// Being decoded or waiting to be sent when its file changed: what was read may be the old file.
    private var changedWhileUnderWay: Set<TileID> = []

    /// Tiles decoded and sent to the display so far (for tests and diagnosis).
    private(set) var tilesUploaded = 0

    init(map: UnsafeMutablePointer<OsmGpsMap>, cache: TileCache) {
        self.map = map
        self.cache = cache
        lifetime = WidgetLifetime(map)
        addDrawingLayer(to: map) { [weak self] cr in self?.draw(cr) }
        lifetime.onDestroy { [weak self] in self?.stop() }
    }

    isolated deinit {
        stop()
    }

    /// The file of `tile` was written (a tile arrived, or a stand-in was put there): read it again.
    func tileChanged(_ tile: TileID) {
        guard lifetime.isAlive else { return }
        absent.remove(tile)
        if shown[tile] != nil { outdated.insert(tile) }
        if decoding == tile || decoded.contains(where: { $0.0 == tile }) { changedWhileUnderWay.insert(tile) }
        gtk_widget_queue_draw(map.widget)
    }

    // MARK: - Drawing

    /// What the widget shows: the world pixel at its top-left corner, its size, and the zoom.
    private struct View {
        var left: Int, top: Int, width: Int, height: Int, zoom: Int
    }

    /// The world pixels at the widget's top-left corner, and the zoom. While the map is dragged its origin
    /// stays put and the view moves by the drag offset; the screen point of (0°, 0°), the world's centre at
    /// every zoom (exact in osm-gps-map's float arithmetic), tells where the view is.
    private func view() -> View {
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        var centre = OsmGpsMapPoint(rlat: 0, rlon: 0, user_data: nil)
        var x: Int32 = 0, y: Int32 = 0
        osm_gps_map_convert_geographic_to_screen(map, &centre, &x, &y)
        let half = (TileID.size / 2) << Int(zoom)
        return View(left: half - Int(x), top: half - Int(y), width: Int(gtk_widget_get_allocated_width(map.widget)),
                    height: Int(gtk_widget_get_allocated_height(map.widget)), zoom: Int(zoom))
    }

    private func draw(_ cr: OpaquePointer) {
        guard lifetime.isAlive else { return }
        frame += 1
        let view = view()
        let size = TileID.size
        // The view and one ring around it (decoded ahead of a pan), nearest the centre first.
        let tiles = TileID.covering(originX: view.left, originY: view.top, width: view.width, height: view.height,
                                    zoom: view.zoom, margin: 1)
        capacity = max(64, 3 * tiles.count)
        var inView: [TileID] = [], ring: [TileID] = []
        for tile in tiles {
            let x = tile.x * size - view.left, y = tile.y * size - view.top
            let visible = x < view.width && y < view.height && x + size > 0 && y + size > 0
            if visible, var entry = shown[tile] {
                entry.lastDrawn = frame
                shown[tile] = entry
                paint(entry.surface, cr, x: Double(x), y: Double(y), scale: 1)
            } else if visible {
                paintStandIn(for: tile, cr, x: Double(x), y: Double(y))
            }
            if shown[tile] == nil || outdated.contains(tile) {
                if visible { inView.append(tile) } else { ring.append(tile) }
            }
        }
        // A tile being decoded, or decoded and waiting to be sent, is not wanted again (it would be decoded twice).
        let underWay = Set(decoded.map(\.0) + (decoding.map { [$0] } ?? []))
        wanted = (inView + ring).filter { !absent.contains($0) && !underWay.contains($0) }
        decodeNext()
        if !decoded.isEmpty { scheduleUpload() } // sent once the widget had a window
    }

    /// Paints `surface` with its top-left corner at (x, y), `scale` times its size.
    private func paint(_ surface: OpaquePointer, _ cr: OpaquePointer, x: Double, y: Double, scale: Double) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, surface, 0, 0)
        if scale != 1 { cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_FAST) }
        cairo_rectangle(cr, 0, 0, Double(TileID.size), Double(TileID.size))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// A missing tile's area: its nearest shown ancestor, enlarged, or else its shown children, reduced.
    private func paintStandIn(for tile: TileID, _ cr: OpaquePointer, x: Double, y: Double) {
        let size = Double(TileID.size)
        for level in stride(from: tile.zoom - 1, through: max(0, tile.zoom - Self.ancestorLevels), by: -1) {
            let ancestor = tile.ancestor(atZoom: level)
            guard let surface = shown[ancestor]?.surface else { continue }
            let factor = Double(1 << (tile.zoom - level))
            cairo_save(cr)
            cairo_rectangle(cr, x, y, size, size)
            cairo_clip(cr)
            let shift = tile.zoom - level
            paint(surface, cr, x: x - Double(tile.x - (ancestor.x << shift)) * size,
                  y: y - Double(tile.y - (ancestor.y << shift)) * size, scale: factor)
            cairo_restore(cr)
            return
        }
        for dx in 0..<2 {
            for dy in 0..<2 {
                let child = TileID(zoom: tile.zoom + 1, x: tile.x * 2 + dx, y: tile.y * 2 + dy)
                guard let surface = shown[child]?.surface else { continue }
                paint(surface, cr, x: x + Double(dx) * size / 2, y: y + Double(dy) * size / 2, scale: 0.5)
            }
        }
    }

    // MARK: - Decoding (one tile at a time, off the main thread)

    private func decodeNext() {
        guard decoding == nil, !wanted.isEmpty else { return }
        let tile = wanted.removeFirst()
        decoding = tile
        let path = cache.fileURL(for: tile).path
        BackgroundThread.tileDecoding.run {
            let image = DecodedTile(path: path)
            Task { @MainActor [weak self] in
                guard let self, self.lifetime.isAlive else { image?.destroy(); return }
                self.decodingFinished(tile, image)
            }
        }
    }

    private func decodingFinished(_ tile: TileID, _ image: DecodedTile?) {
        decoding = nil
        if let image {
            decoded.append((tile, image))
            scheduleUpload()
        } else if changedWhileUnderWay.remove(tile) == nil {
            absent.insert(tile)
            outdated.remove(tile)
        } else {
            gtk_widget_queue_draw(map.widget) // the file came while it was read as missing: the next frame wants it
        }
        decodeNext()
    }

    // MARK: - Sending to the display (a few per idle turn)

    private func scheduleUpload() {
        guard upload == nil else { return }
        upload = Timeout.whenIdle { [weak self] in
            guard let self else { return }
            self.upload = nil
            self.uploadSome()
        }
    }

    private func uploadSome() {
        guard lifetime.isAlive, let window = gtk_widget_get_window(map.widget) else { return }
        let view = view()
        for (tile, image) in decoded.prefix(Self.uploadsPerTurn) {
            let surface = gdk_window_create_similar_surface(window, CAIRO_CONTENT_COLOR,
                                                            Int32(TileID.size), Int32(TileID.size))!
            let cr = cairo_create(surface)!
            cairo_set_source_rgb(cr, 1, 1, 1) // under a tile with transparent parts, as the map's white
            cairo_paint(cr)
            cairo_set_source_surface(cr, image.surface, 0, 0)
            cairo_paint(cr)
            cairo_destroy(cr)
            image.destroy()
            if let old = shown[tile] { cairo_surface_destroy(old.surface) }
            shown[tile] = (surface, frame)
            if changedWhileUnderWay.remove(tile) != nil { outdated.insert(tile) } else { outdated.remove(tile) }
            tilesUploaded += 1
            invalidate(tile, in: view)
        }
        decoded.removeFirst(min(Self.uploadsPerTurn, decoded.count))
        evict()
        if !decoded.isEmpty { scheduleUpload() }
    }

    /// Queues a redraw of the area `tile` covers in `view`: its own area, an ancestor's larger one, or the
    /// quarter a child stands in for.
    private func invalidate(_ tile: TileID, in view: View) {
        let size: Int
        if tile.zoom <= view.zoom {
            size = TileID.size << (view.zoom - tile.zoom)
        } else if tile.zoom == view.zoom + 1 {
            size = TileID.size / 2
        } else {
            return
        }
        let left = max(tile.x * size - view.left, 0), right = min(tile.x * size + size - view.left, view.width)
        let top = max(tile.y * size - view.top, 0), bottom = min(tile.y * size + size - view.top, view.height)
        guard right > left, bottom > top else { return }
        gtk_widget_queue_draw_area(map.widget, Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
    }

    /// Forgets the least recently drawn tiles beyond `capacity`.
    private func evict() {
        guard shown.count > capacity else { return }
        let oldest = shown.sorted { $0.value.lastDrawn < $1.value.lastDrawn }.prefix(shown.count - capacity)
        for (tile, entry) in oldest {
            cairo_surface_destroy(entry.surface)
            shown[tile] = nil
            outdated.remove(tile)
        }
    }

    private func stop() {
        upload?.cancel()
        upload = nil
        wanted = []
        for (_, image) in decoded { image.destroy() }
        decoded = []
        changedWhileUnderWay = []
        for entry in shown.values { cairo_surface_destroy(entry.surface) }
        shown = [:]
    }
}

/// A tile file decoded to a cairo image surface: PNG straight through cairo, anything else through gdk-pixbuf.
private struct DecodedTile: @unchecked Sendable {
    // @unchecked: made on the decoding thread, then handed whole to the GTK thread.
    let surface: OpaquePointer

    /// Nil when the file is missing or not an image.
    init?(path: String) {
        // cairo answers an error surface (never nil) when it cannot read a PNG.
        let png = cairo_image_surface_create_from_png(path)!
        let status = cairo_surface_status(png)
        if status == CAIRO_STATUS_SUCCESS {
            surface = png
            return
        }
        cairo_surface_destroy(png)
        if status == CAIRO_STATUS_FILE_NOT_FOUND { return nil }
        ImageLoaders.prepare() // gdk-pixbuf's first use happens once; both apps make it on the main thread at start-up
        guard let pixbuf = gdk_pixbuf_new_from_file(path, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        guard let converted = ImageSurfaces.surface(from: pixbuf) else { return nil }
        surface = converted
    }

    func destroy() { cairo_surface_destroy(surface) }
}

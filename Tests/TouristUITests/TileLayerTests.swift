import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import Logging
import MapTiles
@testable import MapView
import XCTest

/// The map's tiles come from the tile folder, decoded off the main loop: a zoom step shows the tiles it had,
/// enlarged, until the new level's tiles are ready, and a tile whose file changes is read again.
final class TileLayerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder("tile-layer")
    }

    @MainActor
    func testAZoomStepShowsTheEnlargedLevelUntilItsOwnTilesAreDecoded() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let source = try TileSource.custom(template: "http://127.0.0.1:9/#Z/#X/#Y.png").get()
        let cache = TileCache(folder: folder.appendingPathComponent(source.cacheFolderName))
        try writeLevel(2, red: 1, green: 0, blue: 0, cache: cache)
        try writeLevel(3, red: 0, green: 0, blue: 1, cache: cache)

        let widget = MapWidget(tileSource: source, tileCacheFolder: folder, userAgent: "tests",
                               fetcher: { TileLoader($0, onEvent: $1) }, logger: Logger(label: "tests"),
                               zoomButtons: false, basemap: { nil })
        let window = gtk_offscreen_window_new()!
        gtk_window_set_default_size(window.cast(), 512, 512)
        gtk_container_add(window.container, widget.root)
        widget.show(MapViewport(latitude: 0, longitude: 0, zoom: 2))
        gtk_widget_show_all(window)
        defer { gtk_widget_destroy(window) }

        try await pump(until: { widget.tileLayer.tilesUploaded >= 4 }, "the four zoom-2 tiles in view are decoded")
        XCTAssertEqual(try centre(of: widget), [255, 0, 0], "zoom 2 shows its tiles")

        widget.zoomIn()
        let uploadedBefore = widget.tileLayer.tilesUploaded
        XCTAssertEqual(try centre(of: widget), [255, 0, 0],
                       "right after the zoom step, before any zoom-3 tile is decoded, the zoom-2 tiles stand in")
        XCTAssertEqual(widget.tileLayer.tilesUploaded, uploadedBefore, "nothing was decoded on the main loop")
        try await pump(until: { (try? self.centre(of: widget)) == [0, 0, 255] }, "the zoom-3 tiles replace them")

        // A tile's file changes (a real tile over a stand-in): the layer reads it again when told.
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(widget.map, &latitude, &longitude, &zoom)
        XCTAssertEqual(zoom, 3)
        let centreTile = TileID(zoom: 3, x: 4, y: 4) // south-east of (0°, 0°): the widget's centre pixel
        try write(centreTile, red: 0, green: 1, blue: 0, cache: cache)
        XCTAssertEqual(try centre(of: widget), [0, 0, 255], "the old picture stays until the new one is ready")
        widget.tileLayer.tileChanged(centreTile)
        try await pump(until: { (try? self.centre(of: widget)) == [0, 255, 0] }, "the changed tile is shown")
    }

    /// The widget's centre pixel (just south-east of the centre) as the map draws it now, as RGB.
    @MainActor
    private func centre(of widget: MapWidget) throws -> [UInt8] {
        try drawnPixel(of: widget.map.widget, x: gtk_widget_get_allocated_width(widget.map.widget) / 2 + 2,
                       y: gtk_widget_get_allocated_height(widget.map.widget) / 2 + 2)
    }

    private func writeLevel(_ zoom: Int, red: Double, green: Double, blue: Double, cache: TileCache) throws {
        for x in 0..<(1 << zoom) {
            for y in 0..<(1 << zoom) {
                try write(TileID(zoom: zoom, x: x, y: y), red: red, green: green, blue: blue, cache: cache)
            }
        }
    }

    /// A one-colour PNG tile, written as the tile loader does.
    private func write(_ tile: TileID, red: Double, green: Double, blue: Double, cache: TileCache) throws {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 256, 256)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_paint(cr)
        cairo_destroy(cr)
        let file = folder.appendingPathComponent("tile-\(UUID().uuidString).png")
        XCTAssertEqual(cairo_surface_write_to_png(surface, file.path), CAIRO_STATUS_SUCCESS)
        try cache.store(Data(contentsOf: file), for: tile)
        try FileManager.default.removeItem(at: file)
    }
}

import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import XCTest

/// osm-gps-map 1.2 forgets the id of its queued redraw when a size change redraws at once, so its
/// dispose cannot remove it; the map the shim makes takes such sources with it when destroyed.
final class MapDisposalTests: XCTestCase {
    @MainActor
    func testAQueuedRedrawDoesNotOutliveTheMap() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("map-disposal-\(getpid())")
        defer { try? FileManager.default.removeItem(at: cache) }
        let map = vt_osm_gps_map_new("http://127.0.0.1:9/#Z/#X/#Y.png", cache.path, "tests", 1, 17)!
        let window = gtk_offscreen_window_new()!
        gtk_window_set_default_size(window.cast(), 320, 240)
        gtk_container_add(window.container, map.widget)
        gtk_widget_show_all(window)
        while gtk_events_pending() != 0 { gtk_main_iteration() }
        let mapWindow = try XCTUnwrap(gtk_widget_get_window(map.widget), "the map is realized")

        osm_gps_map_set_zoom(map, 6) // queues a redraw in an idle
        XCTAssertNotNil(g_main_context_find_source_by_user_data(nil, map), "the redraw is queued")
        let event = gdk_event_new(GDK_CONFIGURE)!
        event.pointee.configure.window = mapWindow
        g_object_ref(UnsafeMutableRawPointer(mapWindow))
        event.pointee.configure.width = 320
        event.pointee.configure.height = 240
        _ = gtk_widget_event(map.widget, event) // redraws at once: osm-gps-map forgets the queued idle
        gdk_event_free(event)
        gtk_widget_destroy(window) // disposes the map

        let leftover = g_main_context_find_source_by_user_data(nil, map)
        XCTAssertNil(leftover, "no main-loop source calls back into the destroyed map")
        if let leftover { g_source_destroy(leftover) } // running it would crash the test run
    }
}

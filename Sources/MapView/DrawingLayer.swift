import CGtk
import COsmGpsMap
import COsmGpsMapShims
import GLibSwift

/// Adds to `map` an osm-gps-map layer that calls `draw` with each frame's cairo context (also while the map is
/// dragged), above the layers added before it. The map keeps the layer; `draw` should hold its owner weakly.
@MainActor
func addDrawingLayer(to map: UnsafeMutablePointer<OsmGpsMap>, _ draw: @escaping @MainActor (OpaquePointer) -> Void) {
    typealias Draw = @MainActor (OpaquePointer) -> Void
    let layer = vt_drawing_layer_new({ _, cr, data in
        guard let cr else { return }
        let box = ClosureBox<Draw>.from(data)
        nonisolated(unsafe) let context = cr // drawn on the GTK thread
        MainActor.assumeIsolated { box.body(context) }
    }, ClosureBox<Draw>(draw).retainedPointer(), ClosureBox<Draw>.destroyNotify)
    osm_gps_map_layer_add(map, layer)
    g_object_unref(UnsafeMutableRawPointer(layer))
}

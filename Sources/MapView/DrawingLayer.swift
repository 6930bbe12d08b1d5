import CGtk
import COsmGpsMap
import COsmGpsMapShims

/// Adds to `map` an osm-gps-map layer that calls `draw` with each frame's cairo context (also while the map is
/// dragged), above the layers added before it. The map keeps the layer; `draw` should hold its owner weakly.
@MainActor
func addDrawingLayer(to map: UnsafeMutablePointer<OsmGpsMap>, _ draw: @escaping @MainActor (OpaquePointer) -> Void) {
    let box = Unmanaged.passRetained(DrawingBox(draw)).toOpaque()
    let layer = vt_drawing_layer_new({ _, cr, data in
        guard let cr, let data else { return }
        let box = Unmanaged<DrawingBox>.fromOpaque(data).takeUnretainedValue()
        nonisolated(unsafe) let context = cr // drawn on the GTK thread
        MainActor.assumeIsolated { box.draw(context) }
    }, box, { data in
        guard let data else { return }
        Unmanaged<DrawingBox>.fromOpaque(data).release()
    })
    osm_gps_map_layer_add(map, layer)
    g_object_unref(UnsafeMutableRawPointer(layer))
}

private final class DrawingBox: @unchecked Sendable {
    // @unchecked: called only on the GTK thread.
    let draw: @MainActor (OpaquePointer) -> Void
    init(_ draw: @escaping @MainActor (OpaquePointer) -> Void) { self.draw = draw }
}

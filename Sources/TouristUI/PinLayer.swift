import CGtk
import COsmGpsMap
import CShims
import Foundation
import GLibSwift

/// Identity of a pin on the map: its store id, or a negative placeholder while its insert is in flight.
typealias PinKey = Int64

/// A pin as the map draws it.
struct PinMark: Equatable {
    var key: PinKey
    var latitude: Double
    var longitude: Double
}

/// Draws every pin in one osm-gps-map layer: the layer paints on each frame (also while the map is
/// dragged) on top of the tiles, so thousands of pins cost one pass of cairo blits, not widgets or
/// full map redraws.
@MainActor
final class PinLayer {
    private let map: UnsafeMutablePointer<OsmGpsMap>
    private var layer: OpaquePointer?
    /// Draw order: northern pins first, so pins further south (lower on screen) overlap them.
    private var marks: [PinMark] = []
    private var radians: [(Float, Float)] = []
    private var markKeys: Set<PinKey> = []
    /// Pins shown ahead of the store: just dropped or dragged, until the store's rows catch up.
    private var ahead: [PinKey: PinMark] = [:]
    /// Placeholder keys whose inserts finished, and the stored ids they became.
    private var aliases: [PinKey: PinKey] = [:]
    /// The pin under the pointer while it is being placed or dragged: drawn on top.
    private(set) var floating: PinMark?
    private var image: PinImage

    /// Frame statistics, for the benchmark and debug logging.
    private(set) var framesDrawn = 0
    private(set) var lastFrameSeconds = 0.0
    private(set) var lastFramePinsDrawn = 0

    init(map: UnsafeMutablePointer<OsmGpsMap>) {
        self.map = map
        image = PinImage(scale: gtk_widget_get_scale_factor(map.widget))
        let box = Unmanaged.passRetained(WeakPinLayer(self)).toOpaque()
        layer = vt_pin_layer_new({ _, cr, data in
            guard let cr, let data else { return }
            let weak = Unmanaged<WeakPinLayer>.fromOpaque(data).takeUnretainedValue()
            nonisolated(unsafe) let context = cr // drawn on the GTK thread
            MainActor.assumeIsolated { weak.layer?.draw(context) }
        }, box, { data in
            guard let data else { return }
            Unmanaged<WeakPinLayer>.fromOpaque(data).release()
        })
        osm_gps_map_layer_add(map, layer)
        g_object_unref(UnsafeMutableRawPointer(layer))
    }

    var pins: [PinMark] { marks }

    func setPins(_ newMarks: [PinMark]) {
        marks = newMarks.sorted { $0.latitude > $1.latitude }
        radians = marks.map { (Float($0.latitude * .pi / 180), Float($0.longitude * .pi / 180)) }
        markKeys = Set(marks.map(\.key))
        if !ahead.isEmpty {
            let stored = Dictionary(marks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            ahead = ahead.filter { key, mark in
                guard let row = stored[key] else { return true } // not stored yet: keep showing it
                return abs(row.latitude - mark.latitude) > 1e-9 || abs(row.longitude - mark.longitude) > 1e-9
            }
        }
        redraw()
    }

    func setFloating(_ mark: PinMark?) {
        floating = mark.map(resolved)
        redraw()
    }

    /// The mark under its stored id, if it was a placeholder whose insert has finished.
    func resolved(_ mark: PinMark) -> PinMark {
        var mark = mark
        mark.key = aliases[mark.key] ?? mark.key
        return mark
    }

    /// Shows `mark` where the store has not put it yet.
    func showAhead(_ mark: PinMark) {
        let mark = resolved(mark)
        ahead[mark.key] = mark
        redraw()
    }

    /// A placeholder's insert finished: it is now the stored pin `id`.
    func rekey(from placeholder: PinKey, to id: PinKey) {
        aliases[placeholder] = id
        if var mark = ahead.removeValue(forKey: placeholder) {
            mark.key = id
            ahead[id] = mark
        }
        if floating?.key == placeholder { floating?.key = id }
        redraw()
    }

    /// A placeholder whose insert failed.
    func forget(_ key: PinKey) {
        ahead.removeValue(forKey: key)
        if floating?.key == key { floating = nil }
        redraw()
    }

    func redraw() {
        gtk_widget_queue_draw(map.widget)
    }

    /// The top-most pin whose drawn shape covers the point (map widget coordinates).
    func pin(atX x: Double, y: Double) -> PinMark? {
        if let floating, hit(floating.latitude, floating.longitude, x, y) { return floating }
        for mark in ahead.values where !markKeys.contains(mark.key) {
            if mark.key != floating?.key, hit(mark.latitude, mark.longitude, x, y) { return mark }
        }
        for index in marks.indices.reversed() {
            let mark = ahead[marks[index].key] ?? marks[index]
            if mark.key == floating?.key { continue }
            if hit(mark.latitude, mark.longitude, x, y) { return mark }
        }
        return nil
    }

    private func hit(_ latitude: Double, _ longitude: Double, _ x: Double, _ y: Double) -> Bool {
        let (sx, sy) = screenPoint(Float(latitude * .pi / 180), Float(longitude * .pi / 180))
        return image.contains(dx: x - Double(sx), dy: y - Double(sy))
    }

    private func screenPoint(_ rlat: Float, _ rlon: Float) -> (Int32, Int32) {
        var point = OsmGpsMapPoint(rlat: rlat, rlon: rlon, user_data: nil)
        var x: Int32 = 0, y: Int32 = 0
        osm_gps_map_convert_geographic_to_screen(map, &point, &x, &y)
        return (x, y)
    }

    private func draw(_ cr: OpaquePointer) {
        let started = DispatchTime.now().uptimeNanoseconds
        let scale = gtk_widget_get_scale_factor(map.widget)
        if scale != image.scale { image = PinImage(scale: scale) }
        let width = Double(gtk_widget_get_allocated_width(map.widget))
        let height = Double(gtk_widget_get_allocated_height(map.widget))
        var drawn = 0
        for index in marks.indices {
            let mark = marks[index]
            if mark.key == floating?.key { continue }
            let (sx, sy): (Int32, Int32)
            if let moved = ahead[mark.key] {
                (sx, sy) = screenPoint(Float(moved.latitude * .pi / 180), Float(moved.longitude * .pi / 180))
            } else {
                (sx, sy) = screenPoint(radians[index].0, radians[index].1)
            }
            let x = Double(sx), y = Double(sy)
            // Cull pins whose image lies wholly outside the widget.
            if x + PinImage.width < 0 || x - PinImage.width > width || y < 0 || y - PinImage.height > height { continue }
            image.paint(cr, tipX: x, tipY: y)
            drawn += 1
        }
        for mark in ahead.values where !markKeys.contains(mark.key) && mark.key != floating?.key {
            let (sx, sy) = screenPoint(Float(mark.latitude * .pi / 180), Float(mark.longitude * .pi / 180))
            image.paint(cr, tipX: Double(sx), tipY: Double(sy))
            drawn += 1
        }
        if let floating {
            let (sx, sy) = screenPoint(Float(floating.latitude * .pi / 180), Float(floating.longitude * .pi / 180))
            image.paint(cr, tipX: Double(sx), tipY: Double(sy))
            drawn += 1
        }
        framesDrawn += 1
        lastFramePinsDrawn = drawn
        lastFrameSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }
}

/// The layer's C user data: a weak reference, so the GObject never keeps the Swift page alive.
private final class WeakPinLayer: @unchecked Sendable {
    // @unchecked: read only on the GTK thread.
    weak var layer: PinLayer?
    init(_ layer: PinLayer) { self.layer = layer }
}

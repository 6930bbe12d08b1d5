import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import PinClusters

/// Turns raw pointer events on the map into pin gestures:
/// - press and hold (500 ms, moving less than a few pixels) on empty map drops a pin, which then
///   follows the pointer until release;
/// - press and hold on a pin picks it up and drags it;
/// - a short click on a pin activates it; a short click on empty map does nothing;
/// - any other drag pans the map (osm-gps-map's own behaviour);
/// - secondary click on a pin asks for its menu;
/// - the pointer coming onto a pin (no button held), or a press on one, is told (`hovered`): an app can get
///   ready for the click that usually follows; over a pin the pointer is a hand;
/// - a short click on a cluster marker zooms the map into it (press and hold there drops a pin as
///   on empty map).
/// Handlers run before the map's own, so returning true from motion keeps the map still while a
/// pin is being dragged.
@MainActor
public final class PinGestures {
    public static let holdMilliseconds: UInt32 = 500
    /// Below osm-gps-map's drag-limit (10 px), so a hold that turns into a pan is never both.
    public static let holdSlop = 8.0

    /// What the gestures do; an app that only shows pins leaves `drop` and the drag handlers nil
    /// (press and hold then does nothing, and pins stay where they are).
    public struct Handlers {
        public var drop: ((_ latitude: Double, _ longitude: Double) -> PinMark)?
        public var dragMoved: ((_ mark: PinMark) -> Void)?
        public var dragEnded: ((_ mark: PinMark) -> Void)?
        public var activate: (_ mark: PinMark) -> Void
        public var contextMenu: ((_ mark: PinMark, _ event: UnsafeMutablePointer<GdkEvent>) -> Void)?
        /// The pointer came onto this pin with no button held, or a press landed on it: a click may follow.
        public var hovered: ((_ mark: PinMark) -> Void)?

        public init(drop: ((_ latitude: Double, _ longitude: Double) -> PinMark)? = nil,
                    dragMoved: ((_ mark: PinMark) -> Void)? = nil,
                    dragEnded: ((_ mark: PinMark) -> Void)? = nil,
                    activate: @escaping (_ mark: PinMark) -> Void,
                    contextMenu: ((_ mark: PinMark, _ event: UnsafeMutablePointer<GdkEvent>) -> Void)? = nil,
                    hovered: ((_ mark: PinMark) -> Void)? = nil) {
            self.drop = drop
            self.dragMoved = dragMoved
            self.dragEnded = dragEnded
            self.activate = activate
            self.contextMenu = contextMenu
            self.hovered = hovered
        }

        var canDrag: Bool { dragEnded != nil }
    }

    private enum State {
        case idle
        case pressed(x: Double, y: Double, pin: PinMark?, cluster: Cluster?, hold: Timeout)
        case dragging(PinMark, grabDX: Double, grabDY: Double)
    }

    private let map: UnsafeMutablePointer<OsmGpsMap>
    private let lifetime: WidgetLifetime
    private let layer: PinLayer
    private let handlers: Handlers
    private var state = State.idle
    /// The pin under the pointer, as last told (`hovered`).
    private var hoveredKey: Int64?
    /// The hand shown over pins (a reference held until the map goes).
    private var handCursor: OpaquePointer?

    public init(map: UnsafeMutablePointer<OsmGpsMap>, layer: PinLayer, handlers: Handlers) {
        self.map = map
        lifetime = WidgetLifetime(map)
        self.layer = layer
        self.handlers = handlers
        lifetime.onDestroy { [weak self] in
            if case .pressed(_, _, _, _, let hold) = self?.state { hold.cancel() }
            if let cursor = self?.handCursor { g_object_unref(UnsafeMutableRawPointer(cursor)) }
            self?.handCursor = nil
        }
        map.connect(.buttonPress) { [weak self] event in self?.buttonPressed(event) ?? false }
        map.connect(.motionNotify) { [weak self] event in self?.moved(event) ?? false }
        map.connect(.buttonRelease) { [weak self] event in self?.buttonReleased(event) ?? false }
        // Made ahead: its first making reads the cursor theme's files, on the main thread, as the pointer comes onto a
        // pin that it is about to click.
        Timeout.whenIdle { [weak self] in self?.makeHandCursor() }
    }

    private func makeHandCursor() {
        guard lifetime.isAlive, handCursor == nil else { return }
        handCursor = gdk_cursor_new_from_name(gtk_widget_get_display(map.widget), "pointer")
    }

    public var isDragging: Bool {
        if case .dragging = state { return true }
        return false
    }

    // MARK: Events

    private func buttonPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let button = event.pointee.button
        guard button.type == GDK_BUTTON_PRESS else { return false } // ignore the double-click's extra events
        let hit = layer.pin(atX: button.x, y: button.y)
        switch button.button {
        case 1:
            cancel()
            if let hit { hover(hit) }
            let x = button.x, y = button.y
            let hold = Timeout.after(milliseconds: Self.holdMilliseconds) { [weak self] in self?.held() }
            let cluster = hit == nil ? layer.cluster(atX: x, y: y) : nil
            state = .pressed(x: x, y: y, pin: hit, cluster: cluster, hold: hold)
            return false // the map still sees the press, so a drag can pan it
        case 3:
            guard let hit, let contextMenu = handlers.contextMenu else { return false }
            cancel()
            contextMenu(hit, event)
            return true
        default:
            return false
        }
    }

    private func moved(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        var motion = event.pointee.motion
        // osm-gps-map asks for motion hints: without this request, no further motion events come
        // once our handler (not the map's) consumes one.
        gdk_event_request_motions(&motion)
        switch state {
        case .idle:
            let buttons = GDK_BUTTON1_MASK.rawValue | GDK_BUTTON2_MASK.rawValue | GDK_BUTTON3_MASK.rawValue
            if motion.state & buttons == 0 { hover(layer.pin(atX: motion.x, y: motion.y)) } // not while panning
            return false
        case .pressed(let x, let y, _, _, let hold):
            if hypot(motion.x - x, motion.y - y) > Self.holdSlop {
                hold.cancel()
                state = .idle // a pan: the map handles it
            }
            return false
        case .dragging(var mark, let grabDX, let grabDY):
            let coordinate = coordinate(x: motion.x - grabDX, y: motion.y - grabDY)
            mark.latitude = coordinate.latitude
            mark.longitude = coordinate.longitude
            state = .dragging(mark, grabDX: grabDX, grabDY: grabDY)
            layer.setFloating(mark)
            handlers.dragMoved?(mark)
            return true // keep the map still while a pin moves
        }
    }

    private func buttonReleased(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let button = event.pointee.button
        guard button.button == 1 else { return false }
        switch state {
        case .idle:
            break
        case .pressed(_, _, let pin, let cluster, let hold):
            hold.cancel()
            state = .idle
            if let pin {
                handlers.activate(pin)
            } else if let cluster {
                // After the map has seen this release (it resets its button state), zoom.
                Timeout.after(milliseconds: 0) { [weak self] in self?.layer.zoom(into: cluster) }
            }
        case .dragging(let mark, _, _):
            state = .idle
            layer.setFloating(nil)
            handlers.dragEnded?(mark)
        }
        return false // the map must see the release to reset its own button state
    }

    /// The pointer is over `pin` (nil: over no pin): told once per pin it comes onto; a hand over pins.
    private func hover(_ pin: PinMark?) {
        guard pin?.key != hoveredKey else { return }
        hoveredKey = pin?.key
        if let window = gtk_widget_get_window(map.widget) {
            if pin != nil { makeHandCursor() }
            gdk_window_set_cursor(window, pin == nil ? nil : handCursor)
        }
        if let pin { handlers.hovered?(pin) }
    }

    private func held() {
        guard lifetime.isAlive, case .pressed(let x, let y, let pin, _, _) = state else { return }
        if let pin {
            guard handlers.canDrag else { return } // a click on it still activates it on release
            // Keep the pin where it was grabbed: offset between pointer and the pin's tip.
            let tip = layerPoint(of: pin)
            state = .dragging(pin, grabDX: x - tip.x, grabDY: y - tip.y)
            layer.setFloating(pin)
        } else {
            guard let drop = handlers.drop else { return }
            let coordinate = coordinate(x: x, y: y)
            let mark = drop(coordinate.latitude, coordinate.longitude)
            state = .dragging(mark, grabDX: 0, grabDY: 0)
            layer.setFloating(mark)
        }
    }

    /// Ends a gesture without effects (e.g. the page is hidden mid-press).
    public func cancel() {
        switch state {
        case .pressed(_, _, _, _, let hold): hold.cancel()
        case .dragging(let mark, _, _):
            layer.setFloating(nil)
            handlers.dragEnded?(mark)
        case .idle: break
        }
        state = .idle
    }

    // MARK: Coordinates

    /// Screen point → coordinate in double precision (osm-gps-map's own conversion is float).
    public func coordinate(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
        var originX: Int32 = 0, originY: Int32 = 0
        vt_osm_gps_map_get_origin(map, &originX, &originY)
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        return MapProjection.coordinate(worldX: Double(originX) + x, worldY: Double(originY) + y, zoom: Int(zoom))
    }

    private func layerPoint(of mark: PinMark) -> (x: Double, y: Double) {
        var point = OsmGpsMapPoint(rlat: Float(mark.latitude * .pi / 180), rlon: Float(mark.longitude * .pi / 180),
                                   user_data: nil)
        var x: Int32 = 0, y: Int32 = 0
        osm_gps_map_convert_geographic_to_screen(map, &point, &x, &y)
        return (Double(x), Double(y))
    }
}

/// Web Mercator with 256-pixel tiles, as osm-gps-map uses it.
public enum MapProjection {
    public static func worldSize(zoom: Int) -> Double { 256 * pow(2, Double(zoom)) }

    public static func coordinate(worldX: Double, worldY: Double, zoom: Int) -> (latitude: Double, longitude: Double) {
        let size = worldSize(zoom: zoom)
        var longitude = worldX / size * 360 - 180
        longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if longitude < 0 { longitude += 360 }
        longitude -= 180
        let latitude = atan(sinh(.pi * (1 - 2 * worldY / size))) * 180 / .pi
        return (latitude, longitude)
    }

    public static func worldPoint(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = worldSize(zoom: zoom)
        let x = (longitude + 180) / 360 * size
        let radians = latitude * .pi / 180
        let y = (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * size
        return (x, y)
    }

    /// Degrees of longitude one screen pixel spans at `zoom`.
    public static func degreesPerPixel(zoom: Int) -> Double { 360 / worldSize(zoom: zoom) }
}

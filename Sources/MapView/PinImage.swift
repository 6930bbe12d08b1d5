import CGtk
import Foundation

/// The map pin, drawn with cairo paths into an image at the screen's scale factor (crisp on HiDPI),
/// and hit-tested by that image's own shape.
/// A pin's colour: the usual red, or blue for the one pin that is the user's own.
public enum PinTint: Hashable, Sendable {
    case red, blue

    var rgb: (Double, Double, Double) {
        switch self {
        case .red: return (0.878, 0.106, 0.141)
        case .blue: return (0.110, 0.443, 0.847)
        }
    }
}

@MainActor
public final class PinImage {
    /// Logical size; the tip of the pin (its coordinate) sits at `anchor`.
    public static let width = 28.0
    public static let height = 40.0
    public static let anchor = (x: 14.0, y: 39.0)

    public let scale: Int32
    public nonisolated(unsafe) let surface: OpaquePointer // released in deinit; only drawn on the GTK thread
    private let pixelWidth: Int32
    private let pixelHeight: Int32

    public init(scale: Int32, tint: PinTint = .red) {
        let fill = tint.rgb
        self.scale = max(1, scale)
        pixelWidth = Int32(Self.width) * self.scale
        pixelHeight = Int32(Self.height) * self.scale
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight)
        cairo_surface_set_device_scale(surface, Double(self.scale), Double(self.scale))
        let cr = cairo_create(surface)!
        Self.drawPin(cr, fill: fill)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    /// A copy kept where the pin canvas keeps its pixels (the display), made on first use there.
    private nonisolated(unsafe) var displayCopy: OpaquePointer?

    deinit {
        cairo_surface_destroy(surface)
        if let displayCopy { cairo_surface_destroy(displayCopy) }
    }

    /// What to paint onto `target`: the image itself onto an image, else a copy made like `target` once, so
    /// painting the pin many times sends its pixels to the display once rather than on every paint.
    private func source(for target: OpaquePointer) -> OpaquePointer {
        if cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE { return surface }
        if let displayCopy, cairo_surface_get_type(displayCopy) == cairo_surface_get_type(target) { return displayCopy }
        if let displayCopy { cairo_surface_destroy(displayCopy) }
        let copy = cairo_surface_create_similar(target, CAIRO_CONTENT_COLOR_ALPHA, Int32(Self.width), Int32(Self.height))!
        let cr = cairo_create(copy)!
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        displayCopy = copy
        return copy
    }

    /// Paints the pin with its tip at (x, y) in the context's logical coordinates.
    public func paint(_ cr: OpaquePointer, tipX x: Double, tipY y: Double) {
        let left = x - Self.anchor.x, top = y - Self.anchor.y
        cairo_set_source_surface(cr, source(for: cairo_get_target(cr)), left, top)
        cairo_rectangle(cr, left, top, Self.width, Self.height)
        cairo_fill(cr)
    }

    /// Whether the point (dx, dy), relative to the pin's tip, falls on the pin's opaque pixels.
    public func contains(dx: Double, dy: Double) -> Bool {
        let px = Int32(((dx + Self.anchor.x) * Double(scale)).rounded(.down))
        let py = Int32(((dy + Self.anchor.y) * Double(scale)).rounded(.down))
        guard px >= 0, py >= 0, px < pixelWidth, py < pixelHeight,
              let data = cairo_image_surface_get_data(surface) else { return false }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixel = UnsafeRawPointer(data).load(fromByteOffset: Int(py) * stride + Int(px) * 4, as: UInt32.self)
        return (pixel >> 24) > 64 // ARGB32 is native-endian: alpha in the top byte
    }

    private static func drawPin(_ cr: OpaquePointer, fill: (Double, Double, Double)) {
        let centre = (x: 14.0, y: 13.5), radius = 11.5
        let tip = (x: anchor.x, y: 38.0)
        // A soft shadow where the tip meets the map.
        cairo_save(cr)
        cairo_translate(cr, tip.x, tip.y)
        cairo_scale(cr, 1, 0.35)
        cairo_arc(cr, 0, 0, 4, 0, 2 * .pi)
        cairo_restore(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.3)
        cairo_fill(cr)

        // Teardrop: the circle's arc over the top, then straight lines to the tip along its tangents.
        let distance = tip.y - centre.y
        let spread = acos(radius / distance)
        cairo_new_path(cr)
        cairo_arc(cr, centre.x, centre.y, radius, .pi / 2 + spread, .pi / 2 - spread + 2 * .pi)
        cairo_line_to(cr, tip.x, tip.y)
        cairo_close_path(cr)
        cairo_set_source_rgb(cr, fill.0, fill.1, fill.2)
        cairo_fill_preserve(cr)
        cairo_set_line_width(cr, 1.5)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.35)
        cairo_stroke(cr)

        cairo_arc(cr, centre.x, centre.y, 4.5, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
    }
}

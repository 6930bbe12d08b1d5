import CGtk
import Foundation
import Translations

/// A cluster's marker: a red disc with a white ring and a thin dark edge (seen on light and dark
/// tiles), its count in white bold; rendered at the screen's scale factor (disc images and labels
/// alike), so it is crisp at scale 2. Grows a little with the count.
enum ClusterMarker {
    static func radius(count: Int) -> Double {
        min(26, 13 + 3 * log10(Double(max(count, 2))))
    }

    /// The count in the locale's digits, thousands and millions with the SI symbols ("1.2k", German "1,2k"): they fit
    /// every disc, which the locales' own short forms do not (German's for 12,345 is "12.345", Russian's "12 тыс.").
    static func label(_ count: Int, locale: Locale) -> String {
        if count < 1_000 { return count.formatted(.number.locale(locale)) }
        let (scaled, symbol) = count < 999_500 ? (Double(count) / 1_000, "k") : (Double(count) / 1_000_000, "M")
        let digits = scaled < 9.95 ? 0...1 : 0...0
        return scaled.formatted(.number.precision(.fractionLength(digits)).grouping(.never).locale(locale)) + symbol
    }

    /// Whether (dx, dy) from the marker's centre falls on it.
    static func contains(count: Int, dx: Double, dy: Double) -> Bool {
        hypot(dx, dy) <= radius(count: count) + 1
    }

    /// Draws the disc (edge, ring, fill) centred at (x, y).
    fileprivate static func drawDisc(_ cr: OpaquePointer, x: Double, y: Double, radius: Double) {
        cairo_new_path(cr)
        cairo_arc(cr, x, y, radius + 1, 0, 2 * .pi)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.55)
        cairo_fill(cr)
        cairo_arc(cr, x, y, radius, 0, 2 * .pi)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_fill(cr)
        cairo_arc(cr, x, y, radius - 2.5, 0, 2 * .pi)
        let (red, green, blue) = PinTint.red.rgb
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_fill(cr)
    }

    /// Draws `text` (a count's label) centred at (x, y); the context's font must be `selectFont`'s.
    fileprivate static func drawLabel(_ cr: OpaquePointer, x: Double, y: Double, text: String) {
        cairo_set_font_size(cr, text.count > 3 ? 11 : 12.5)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        cairo_move_to(cr, x - extents.width / 2 - extents.x_bearing, y - extents.height / 2 - extents.y_bearing)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }

    fileprivate static func selectFont(_ cr: OpaquePointer) {
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
    }
}

/// Cluster markers' discs rendered once per size at one scale, so a view's ~130 markers cost a blit
/// and a label each: filling three antialiased circles per marker took ~0.13 ms, most of a zoom frame.
/// Radii are rounded to a quarter of a pixel (at most ~50 discs, ~2.5 MB at scale 2); a disc is blitted
/// at whole logical pixels, so it is placed exactly as drawing it there would place it.
@MainActor
final class ClusterMarkerImages {
    let scale: Int32
    private var discs: [Int: OpaquePointer] = [:]
    private let locale = Translations.formattingLocale

    init(scale: Int32) {
        self.scale = max(1, scale)
    }

    isolated deinit {
        for surface in discs.values { cairo_surface_destroy(surface) }
    }

    /// Prepares `cr` for `draw`: the labels' font, chosen once per pass rather than per marker.
    func begin(_ cr: OpaquePointer) {
        ClusterMarker.selectFont(cr)
    }

    /// Draws the marker for `count` centred at (x, y) in whole logical pixels, after `begin`; returns
    /// half the side of the square it covers (the label stays inside the disc).
    @discardableResult
    func draw(_ cr: OpaquePointer, x: Int32, y: Int32, count: Int) -> Double {
        let (surface, half) = disc(radius: ClusterMarker.radius(count: count), like: cairo_get_target(cr))
        let left = Double(x) - half, top = Double(y) - half
        cairo_set_source_surface(cr, surface, left, top)
        cairo_rectangle(cr, left, top, 2 * half, 2 * half)
        cairo_fill(cr)
        ClusterMarker.drawLabel(cr, x: Double(x), y: Double(y),
                                text: ClusterMarker.label(count, locale: locale))
        return half
    }

    /// The disc for `radius` (rounded), and half its side in logical pixels. Made where `target` keeps its
    /// pixels (the display, for the map's pin canvas), so drawing it many times sends it there once.
    private func disc(radius: Double, like target: OpaquePointer) -> (OpaquePointer, Double) {
        let steps = Int((radius * 4).rounded())
        let radius = Double(steps) / 4
        let half = (radius + 2).rounded(.up)
        if let surface = discs[steps] { return (surface, half) }
        let surface = cairo_surface_create_similar(target, CAIRO_CONTENT_COLOR_ALPHA, Int32(2 * half), Int32(2 * half))!
        let cr = cairo_create(surface)!
        ClusterMarker.drawDisc(cr, x: half, y: half, radius: radius)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        discs[steps] = surface
        return (surface, half)
    }
}

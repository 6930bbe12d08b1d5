import CGtk
import PinClusters

/// The pin image in each colour at one scale; every tint has the same shape, so one hit-tests for all.
@MainActor
struct PinImages {
    let scale: Int32
    private let red: PinImage
    private let blue: PinImage

    init(scale: Int32) {
        red = PinImage(scale: scale, tint: .red)
        blue = PinImage(scale: scale, tint: .blue)
        self.scale = red.scale
    }

    var shape: PinImage { red }

    subscript(tint: PinTint) -> PinImage {
        switch tint {
        case .red: return red
        case .blue: return blue
        }
    }
}

/// The pins painted once into an image a little larger than the map, reused while the map is
/// dragged (pins move rigidly with it): a pan frame costs one blit instead of one per pin.
@MainActor
final class PinCache {
    struct Key: Equatable {
        var originX: Int32, originY: Int32, zoom: Int32, version: Int
        var width: Int, height: Int, scale: Int32
    }

    /// Extra room around the map, so a drag reveals pins that are already painted.
    static let margin = 256.0

    let key: Key
    private let reference: (Int32, Int32)
    private let surface: OpaquePointer
    let pinsDrawn: Int
    /// With clustering: what it shows, north to south.
    let clusters: [Cluster]

    init(key: Key, reference: (Int32, Int32), clusters: [Cluster] = [], draw: (OpaquePointer, Double) -> Int) {
        self.key = key
        self.reference = reference
        self.clusters = clusters
        let margin = Self.margin
        let scale = Double(key.scale)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                             Int32((Double(key.width) + 2 * margin) * scale),
                                             Int32((Double(key.height) + 2 * margin) * scale))
        cairo_surface_set_device_scale(surface, scale, scale)
        let cr = cairo_create(surface)!
        cairo_translate(cr, margin, margin)
        pinsDrawn = draw(cr, margin)
        cairo_destroy(cr)
    }

    isolated deinit {
        cairo_surface_destroy(surface)
    }

    func isUsable(for key: Key, reference: (Int32, Int32)) -> Bool {
        guard key == self.key else { return false }
        let dx = Double(reference.0 - self.reference.0), dy = Double(reference.1 - self.reference.1)
        return abs(dx) < Self.margin - PinImage.height && abs(dy) < Self.margin - PinImage.height
    }

    func paint(_ cr: OpaquePointer, reference: (Int32, Int32)) {
        let dx = Double(reference.0 - self.reference.0) - Self.margin
        let dy = Double(reference.1 - self.reference.1) - Self.margin
        cairo_set_source_surface(cr, surface, dx, dy)
        cairo_paint(cr)
    }
}

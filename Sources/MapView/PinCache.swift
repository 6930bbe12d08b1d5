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
    /// Kept by the next cache of the same size.
    let canvas: PinCanvas
    let pinsDrawn: Int
    /// With clustering: what it shows, north to south.
    let clusters: [Cluster]

    /// Paints with `draw` (context translated by the margin) into `canvas`, cleared first.
    init(key: Key, reference: (Int32, Int32), canvas: PinCanvas, clusters: [Cluster] = [],
         draw: (OpaquePointer, Double) -> Int) {
        self.key = key
        self.reference = reference
        self.clusters = clusters
        self.canvas = canvas
        canvas.clear()
        let cr = cairo_create(canvas.surface)!
        cairo_translate(cr, Self.margin, Self.margin)
        pinsDrawn = draw(cr, Self.margin)
        cairo_destroy(cr)
    }

    func isUsable(for key: Key, reference: (Int32, Int32)) -> Bool {
        guard key == self.key else { return false }
        let dx = Double(reference.0 - self.reference.0), dy = Double(reference.1 - self.reference.1)
        return abs(dx) < Self.margin - PinImage.height && abs(dy) < Self.margin - PinImage.height
    }

    func paint(_ cr: OpaquePointer, reference: (Int32, Int32)) {
        let dx = Double(reference.0 - self.reference.0) - Self.margin
        let dy = Double(reference.1 - self.reference.1) - Self.margin
        cairo_set_source_surface(cr, canvas.surface, dx, dy)
        cairo_paint(cr)
    }
}

/// The image a `PinCache` paints into, a little larger than the map, kept from one cache to the next
/// while the map's size and scale stay: clearing what the last cache drew (its pins' and markers'
/// boxes) costs far less than allocating and faulting in ~9 MB on every zoom step.
@MainActor
final class PinCanvas {
    let width: Int, height: Int, scale: Int32
    let surface: OpaquePointer
    /// What was drawn since the last clear, in the caches' context coordinates.
    private var drawn: [(x: Double, y: Double, width: Double, height: Double)] = []
    /// Past this many boxes one clear of the whole image is cheaper.
    private static let boxLimit = 2_000

    /// Made like `target` (the surface a frame draws on): on the display, so a frame composes it there
    /// instead of sending its ~9 MB from here each time.
    init(width: Int, height: Int, scale: Int32, like target: OpaquePointer) {
        self.width = width
        self.height = height
        self.scale = scale
        let margin = PinCache.margin
        surface = cairo_surface_create_similar(target, CAIRO_CONTENT_COLOR_ALPHA, Int32(Double(width) + 2 * margin),
                                               Int32(Double(height) + 2 * margin))
    }

    isolated deinit {
        cairo_surface_destroy(surface)
    }

    func fits(width: Int, height: Int, scale: Int32, target: OpaquePointer) -> Bool {
        width == self.width && height == self.height && scale == self.scale
            && cairo_surface_get_type(target) == cairo_surface_get_type(surface)
    }

    /// Notes a box that was drawn into (context coordinates, margin translated), for the next clear.
    func noteDrawn(x: Double, y: Double, width: Double, height: Double) {
        drawn.append((x, y, width, height))
    }

    func clear() {
        guard !drawn.isEmpty else { return }
        let cr = cairo_create(surface)!
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        if drawn.count > Self.boxLimit {
            cairo_paint(cr)
        } else {
            cairo_translate(cr, PinCache.margin, PinCache.margin)
            // Whole pixels around each box, so antialiased edges go too.
            for box in drawn {
                cairo_rectangle(cr, (box.x - 1).rounded(.down), (box.y - 1).rounded(.down),
                                (box.width + 2).rounded(.up) + 1, (box.height + 2).rounded(.up) + 1)
            }
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        drawn.removeAll(keepingCapacity: true)
    }
}

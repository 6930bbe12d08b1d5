import CGeonames
import Foundation
import Translations

/// Names a point after its city with no network, through a k-d tree on the unit sphere (chord distance orders
/// as great-circle distance does, with no pole or date-line cases). Look up off the main thread: the first builds it.
public final class NearestCities: Sendable {
    /// Built on first use, once for the process.
    public static let shared = NearestCities(cities: (0..<max(0, Int(geonames_get_n_cities())))
        .compactMap { GeonamesCity(index: gint($0)) })

    private let cities: [GeonamesCity]
    private let tree: SphereTree

    init(cities: [GeonamesCity]) {
        self.cities = cities
        tree = SphereTree(points: cities.map { SpherePoint(latitude: $0.latitude, longitude: $0.longitude) })
    }

    /// How many cities the index holds (0 when libgeonames has no data).
    public var count: Int { cities.count }

    /// The city a point belongs to and its distance from the centre; of the nearest few, the one whose size covers
    /// it best, since Montmartre is nearer Saint-Ouen's centre but in Paris. Nil only when there are no cities.
    public func nearest(latitude: Double, longitude: Double) -> (city: Place, kilometres: Double)? {
        let candidates = tree.nearest(to: SpherePoint(latitude: latitude, longitude: longitude), count: 12)
        let scored = candidates.map { candidate in
            let kilometres = SpherePoint.kilometres(chord: candidate.chord)
            return (index: candidate.index, kilometres: kilometres,
                    reach: kilometres / Self.radius(population: cities[candidate.index].population))
        }
        guard let best = scored.min(by: { $0.reach < $1.reach }) else { return nil }
        return (cities[best.index].place, best.kilometres)
    }

    /// A rough radius for a city of this size: about 6 km for Paris's two million, 1 km for 60,000 people.
    static func radius(population: Int) -> Double {
        max(0.5, 0.004 * Double(max(population, 1)).squareRoot())
    }

    /// What a pin at this point is called offline: the city itself within `nearby` kilometres
    /// ("Paris, Île-de-France, France"), else the distance from it ("120 km from Reykjavík, Iceland", in miles
    /// where the locale measures in miles), since the sea and the wilds have no city of their own. Nil only when
    /// there are no cities at all.
    public func name(latitude: Double, longitude: Double, nearby: Double = 25) -> String? {
        guard let (city, kilometres) = nearest(latitude: latitude, longitude: longitude) else { return nil }
        if kilometres <= nearby { return city.name }
        let locale = Translations.formattingLocale
        if Translations.usesMiles {
            let distance = Self.roundedDistance(kilometres / 1.609344).formatted(.number.locale(locale))
            // Translators: %1$@ is a distance in miles, e.g. "75", %2$@ a city, e.g. "Reykjavík, Iceland".
            return formatted(tr("%1$@ mi from %2$@"), distance, city.name)
        }
        let distance = Self.roundedDistance(kilometres).formatted(.number.locale(locale))
        // Translators: %1$@ is a distance in kilometres, e.g. "120", %2$@ a city, e.g. "Reykjavík, Iceland".
        return formatted(tr("%1$@ km from %2$@"), distance, city.name)
    }

    /// Whole units below 100, tens above: the distance is from the city's centre, so more would be noise.
    static func roundedDistance(_ distance: Double) -> Int {
        distance < 100 ? Int(distance.rounded()) : Int((distance / 10).rounded()) * 10
    }
}

/// A point on the unit sphere.
struct SpherePoint {
    var x: Double, y: Double, z: Double

    init(latitude: Double, longitude: Double) {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        x = cos(φ) * cos(λ)
        y = cos(φ) * sin(λ)
        z = sin(φ)
    }

    subscript(axis: Int) -> Double { axis == 0 ? x : axis == 1 ? y : z }

    func squaredDistance(to other: SpherePoint) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return dx * dx + dy * dy + dz * dz
    }

    /// The great-circle distance on Earth for a straight-line (chord) distance on the unit sphere.
    static func kilometres(chord: Double) -> Double {
        6371.0088 * 2 * asin(min(1, chord / 2))
    }
}

/// A static 3-d tree: the points' indices arranged so that each subrange's middle element splits it on
/// one axis (cycling x, y, z). No per-node allocation; the search prunes a side whose split plane is farther
/// than the k-th best so far.
struct SphereTree {
    private let points: [SpherePoint]
    private var order: [Int]

    init(points: [SpherePoint]) {
        self.points = points
        order = Array(points.indices)
        build(0, order.count, axis: 0)
    }

    private mutating func build(_ start: Int, _ end: Int, axis: Int) {
        guard end - start > 1 else { return }
        let middle = (start + end) / 2
        let points = self.points
        order[start..<end].sort { points[$0][axis] < points[$1][axis] }
        build(start, middle, axis: (axis + 1) % 3)
        build(middle + 1, end, axis: (axis + 1) % 3)
    }

    /// The `count` points nearest `target` (nearest first), with their straight-line distances.
    func nearest(to target: SpherePoint, count: Int = 1) -> [(index: Int, chord: Double)] {
        guard !order.isEmpty, count > 0 else { return [] }
        var best = Nearest(capacity: count)
        search(0, order.count, axis: 0, target, &best)
        return best.found.map { ($0.index, $0.squared.squareRoot()) }
    }

    /// The best `capacity` so far, nearest first.
    struct Nearest {
        let capacity: Int
        var found: [(index: Int, squared: Double)] = []

        /// What a farther subtree must beat to matter.
        var bound: Double { found.count < capacity ? .infinity : found[found.count - 1].squared }

        mutating func offer(_ index: Int, _ squared: Double) {
            guard squared < bound else { return }
            let position = found.firstIndex { $0.squared > squared } ?? found.count
            found.insert((index, squared), at: position)
            if found.count > capacity { found.removeLast() }
        }
    }

    private func search(_ start: Int, _ end: Int, axis: Int, _ target: SpherePoint, _ best: inout Nearest) {
        guard start < end else { return }
        let middle = (start + end) / 2
        let index = order[middle]
        best.offer(index, points[index].squaredDistance(to: target))
        let offset = target[axis] - points[index][axis]
        let next = (axis + 1) % 3
        let (near, far) = offset < 0 ? ((start, middle), (middle + 1, end)) : ((middle + 1, end), (start, middle))
        search(near.0, near.1, axis: next, target, &best)
        if offset * offset < best.bound { search(far.0, far.1, axis: next, target, &best) }
    }
}

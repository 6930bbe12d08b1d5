/// A pin as the index sees it: its key and its place in Web-Mercator unit coordinates
/// (x: 0 at 180° W … 1 at 180° E; y: 0 at the top of the map … 1 at the bottom).
public struct ClusterPoint: Equatable, Sendable {
    public var key: Int64
    public var x: Double
    public var y: Double

    public init(key: Int64, x: Double, y: Double) {
        self.key = key
        self.x = x
        self.y = y
    }

    public init(key: Int64, latitude: Double, longitude: Double) {
        self.init(key: key, x: Mercator.x(longitude: longitude), y: Mercator.y(latitude: latitude))
    }
}

/// A box in unit coordinates (minY is the northern edge).
public struct UnitBounds: Equatable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public func contains(x: Double, y: Double) -> Bool { x >= minX && x <= maxX && y >= minY && y <= maxY }

    public var west: Double { Mercator.longitude(x: minX) }
    public var east: Double { Mercator.longitude(x: maxX) }
    public var north: Double { Mercator.latitude(y: minY) }
    public var south: Double { Mercator.latitude(y: maxY) }

    func union(_ other: UnitBounds) -> UnitBounds {
        UnitBounds(minX: min(minX, other.minX), minY: min(minY, other.minY),
                   maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }
}

/// Identifies a cluster at one zoom level: the zoom and the key of the pin whose cluster seeded it.
/// The same pins give the same ids in every build, so a redraw can tell a marker is unchanged.
public struct ClusterID: Hashable, Sendable {
    public let zoom: Int
    public let seed: Int64
}

/// What the map draws at one zoom: one pin (count 1, `key` set) or a marker for `count` pins.
public struct Cluster: Equatable, Sendable {
    public let id: ClusterID
    /// Where it sits in its level of the index that made it.
    let index: Int32
    /// Centre in unit coordinates: the mean of its pins.
    public let x: Double
    public let y: Double
    public let count: Int
    /// The box around its pins, for zooming to fit them.
    public let bounds: UnitBounds
    /// The pin's key when the cluster is a single pin.
    public let key: Int64?

    public var latitude: Double { Mercator.latitude(y: y) }
    public var longitude: Double { Mercator.longitude(x: x) }
}

/// Clusters of pins for every zoom level, built greedily level by level the supercluster way, with a k-d tree
/// per level so a view's clusters are one box query. Immutable and `Sendable`, so it is built off the main thread;
/// deterministic, so a rebuild after any change equals a fresh build.
public struct ClusterIndex: Sendable {
    public struct Options: Equatable, Sendable {
        /// Cluster radius in pixels at `tileSize`.
        public var radius: Double
        public var tileSize: Double
        public var minZoom: Int
        /// The last zoom that clusters; beyond it every pin is shown alone.
        public var maxZoom: Int

        public init(radius: Double = 48, tileSize: Double = 256, minZoom: Int = 0, maxZoom: Int = 18) {
            precondition(minZoom >= 0 && minZoom <= maxZoom && maxZoom < 30)
            self.radius = radius
            self.tileSize = tileSize
            self.minZoom = minZoom
            self.maxZoom = maxZoom
        }

        /// The radius in unit coordinates at `zoom`.
        public func unitRadius(zoom: Int) -> Double { radius / (tileSize * Double(1 << zoom)) }
    }

    /// One zoom level's clusters, in parallel arrays.
    struct Level: Sendable {
        var x: [Double] = []
        var y: [Double] = []
        var count: [Int] = []
        var bounds: [UnitBounds] = []
        var seed: [Int64] = []
        /// The index of the cluster each one joined at the level above (-1 at the top).
        var parent: [Int32] = []
        /// The clusters of the level below that joined each one: children[childStart[i]..<childStart[i + 1]].
        var childStart: [Int32] = []
        var children: [Int32] = []
        var tree = KDTree(x: [], y: [])

        var size: Int { x.count }
    }

    public let options: Options
    /// The pins, in key order.
    public let points: [ClusterPoint]
    /// levels[z - minZoom] for z in minZoom...maxZoom + 1; the last one is the pins themselves.
    let levels: [Level]

    public init(points: [ClusterPoint], options: Options = Options()) {
        self.options = options
        // Key order makes the greedy pass independent of the order the pins came in.
        let points = points.sorted { $0.key < $1.key }
        self.points = points
        var leaves = Level()
        leaves.x = points.map(\.x)
        leaves.y = points.map(\.y)
        leaves.count = [Int](repeating: 1, count: points.count)
        leaves.bounds = points.map { UnitBounds(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y) }
        leaves.seed = points.map(\.key)
        leaves.parent = [Int32](repeating: -1, count: points.count)
        leaves.tree = KDTree(x: leaves.x, y: leaves.y)
        var levels = [leaves]
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            var below = levels[levels.count - 1]
            let level = Self.cluster(&below, radius: options.unitRadius(zoom: zoom))
            levels[levels.count - 1] = below
            levels.append(Self.withChildren(level, below: below))
        }
        self.levels = levels.reversed()
    }

    /// The index for `newPoints`: this one when nothing was inserted, moved or deleted, else a new build.
    public func updated(with newPoints: [ClusterPoint]) -> ClusterIndex {
        ClusterIndex.Change(from: points, to: newPoints).isEmpty ? self : ClusterIndex(points: newPoints, options: options)
    }

    // MARK: Queries

    /// The clusters whose centres lie in the box at `zoom` (degrees; `west > east` crosses the antimeridian).
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Int) -> [Cluster] {
        let minY = Mercator.y(latitude: north), maxY = Mercator.y(latitude: south)
        if west > east {
            return clusters(in: UnitBounds(minX: Mercator.x(longitude: west), minY: minY, maxX: 1, maxY: maxY), zoom: zoom)
                + clusters(in: UnitBounds(minX: 0, minY: minY, maxX: Mercator.x(longitude: east), maxY: maxY), zoom: zoom)
        }
        return clusters(in: UnitBounds(minX: Mercator.x(longitude: west), minY: minY,
                                       maxX: Mercator.x(longitude: east), maxY: maxY), zoom: zoom)
    }

    /// The clusters whose centres lie in the box (unit coordinates) at `zoom`.
    public func clusters(in box: UnitBounds, zoom: Int) -> [Cluster] {
        let zoom = clampedZoom(zoom)
        let level = levels[zoom - options.minZoom]
        var result: [Cluster] = []
        level.tree.forEach(inMinX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY) { index in
            result.append(cluster(index, in: level, zoom: zoom))
        }
        return result
    }

    /// Every cluster at `zoom`.
    public func allClusters(zoom: Int) -> [Cluster] {
        let zoom = clampedZoom(zoom)
        let level = levels[zoom - options.minZoom]
        return (0..<level.size).map { cluster($0, in: level, zoom: zoom) }
    }

    /// The zoom at which the cluster falls apart into more than one (for a single pin: the zoom after `maxZoom`).
    public func expansionZoom(of cluster: Cluster) -> Int {
        var zoom = clampedZoom(cluster.id.zoom)
        guard var index = validIndex(of: cluster) else { return zoom + 1 }
        while zoom <= options.maxZoom {
            let level = levels[zoom - options.minZoom]
            let start = Int(level.childStart[Int(index)]), end = Int(level.childStart[Int(index) + 1])
            zoom += 1
            if end - start != 1 { return zoom }
            index = level.children[start]
        }
        return zoom
    }

    /// The keys of the pins in a cluster, in key order.
    public func leaves(of cluster: Cluster) -> [Int64] {
        let zoom = clampedZoom(cluster.id.zoom)
        guard let index = validIndex(of: cluster) else { return [] }
        var current: [Int32] = [index]
        for level in levels[(zoom - options.minZoom)..<(levels.count - 1)] {
            current = current.flatMap { level.children[Int(level.childStart[Int($0)])..<Int(level.childStart[Int($0) + 1])] }
        }
        let pins = levels[levels.count - 1]
        return current.map { pins.seed[Int($0)] }.sorted()
    }

    /// The cluster's index in its level, if it comes from this index.
    private func validIndex(of cluster: Cluster) -> Int32? {
        let level = levels[clampedZoom(cluster.id.zoom) - options.minZoom]
        guard level.seed.indices.contains(Int(cluster.index)), level.seed[Int(cluster.index)] == cluster.id.seed,
              level.count[Int(cluster.index)] == cluster.count else { return nil }
        return cluster.index
    }

    private func clampedZoom(_ zoom: Int) -> Int { min(max(zoom, options.minZoom), options.maxZoom + 1) }

    private func cluster(_ index: Int, in level: Level, zoom: Int) -> Cluster {
        let count = level.count[index]
        return Cluster(id: ClusterID(zoom: zoom, seed: level.seed[index]), index: Int32(index), x: level.x[index], y: level.y[index],
                       count: count, bounds: level.bounds[index], key: count == 1 ? level.seed[index] : nil)
    }

    // MARK: Building

    /// The level above `below`: greedy passes until no two clusters lie within `radius`; sets
    /// `below.parent`.
    static func cluster(_ below: inout Level, radius: Double) -> Level {
        var (level, moved) = greedyPass(below, radius: radius)
        below.parent = level.parent
        // A pass's centres are means that can drift within the radius of another, so merge again until none
        // overlap; only clusters that took others in have moved, so only those are checked.
        var found: [Int32] = [], stack: [Int] = []
        if level.size == below.size {
            // Nothing merged: the same clusters in the same order, and the same tree.
            var same = below
            same.parent = [Int32](repeating: -1, count: below.size)
            same.childStart = []
            same.children = []
            below.parent = (0..<Int32(below.size)).map { $0 }
            return same
        }
        while true {
            level.tree = KDTree(x: level.x, y: level.y)
            let crowded = moved.contains { index in
                found.removeAll(keepingCapacity: true)
                level.tree.append(within: radius, ofX: level.x[index], y: level.y[index], to: &found, stack: &stack)
                return found.count > 1
            }
            if !crowded { break }
            var merged: Level
            (merged, moved) = greedyPass(level, radius: radius)
            for index in below.parent.indices { below.parent[index] = merged.parent[Int(below.parent[index])] }
            level = merged
        }
        level.parent = [Int32](repeating: -1, count: level.size)
        return level
    }

    /// `level` with the lists of its children in `below` (from `below.parent`).
    private static func withChildren(_ level: Level, below: Level) -> Level {
        var level = level
        var counts = [Int32](repeating: 0, count: level.size + 1)
        for parent in below.parent { counts[Int(parent) + 1] += 1 }
        for index in 0..<level.size { counts[index + 1] += counts[index] }
        var next = counts
        var children = [Int32](repeating: 0, count: below.size)
        for child in 0..<below.size {
            let parent = Int(below.parent[child])
            children[Int(next[parent])] = Int32(child)
            next[parent] += 1
        }
        level.childStart = counts
        level.children = children
        return level
    }

    /// One greedy pass: each unclaimed cluster, in order, claims the unclaimed ones within `radius`.
    /// The result's `parent` maps `below`'s clusters to it (its tree is not built); `moved` lists
    /// the clusters that took in others.
    private static func greedyPass(_ below: Level, radius: Double) -> (Level, moved: [Int]) {
        var result = Level()
        var moved: [Int] = []
        var parent = [Int32](repeating: -1, count: below.size)
        var found: [Int32] = [], stack: [Int] = []
        // In the tree's order, so consecutive queries walk the same nodes; that order is fixed by the pins.
        for treeIndex in below.tree.ids {
            let index = Int(treeIndex)
            if parent[index] >= 0 { continue }
            let target = Int32(result.size)
            found.removeAll(keepingCapacity: true)
            below.tree.append(within: radius, ofX: below.x[index], y: below.y[index], to: &found, stack: &stack)
            var count = 0, sumX = 0.0, sumY = 0.0, members = 0
            var bounds = below.bounds[index]
            for other in found where parent[Int(other)] < 0 {
                let member = Int(other)
                parent[member] = target
                members += 1
                let weight = below.count[member]
                count += weight
                sumX += below.x[member] * Double(weight)
                sumY += below.y[member] * Double(weight)
                bounds = bounds.union(below.bounds[member])
            }
            if members > 1 {
                moved.append(result.size)
                result.x.append(sumX / Double(count))
                result.y.append(sumY / Double(count))
            } else {
                result.x.append(below.x[index])
                result.y.append(below.y[index])
            }
            result.count.append(count)
            result.bounds.append(bounds)
            result.seed.append(below.seed[index])
        }
        result.parent = parent
        return (result, moved)
    }
}

extension ClusterIndex {
    /// What changed between two lists of pins, by key.
    public struct Change: Equatable, Sendable {
        public var inserted: [Int64] = []
        public var moved: [Int64] = []
        public var deleted: [Int64] = []

        public var isEmpty: Bool { inserted.isEmpty && moved.isEmpty && deleted.isEmpty }

        public init(from old: [ClusterPoint], to new: [ClusterPoint]) {
            var before: [Int64: ClusterPoint] = [:]
            before.reserveCapacity(old.count)
            for point in old { before[point.key] = point }
            var seen = Set<Int64>()
            seen.reserveCapacity(new.count)
            for point in new {
                seen.insert(point.key)
                if let was = before[point.key] {
                    if was.x != point.x || was.y != point.y { moved.append(point.key) }
                } else {
                    inserted.append(point.key)
                }
            }
            deleted = old.map(\.key).filter { !seen.contains($0) }
        }
    }
}

/// Web Mercator in unit coordinates.
public enum Mercator {
    public static let maxLatitude = 85.0511287798

    public static func x(longitude: Double) -> Double { longitude / 360 + 0.5 }

    public static func y(latitude: Double) -> Double {
        let latitude = min(max(latitude, -maxLatitude), maxLatitude)
        let sine = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / .pi
        return min(max(y, 0), 1)
    }

    public static func longitude(x: Double) -> Double { (x - 0.5) * 360 }

    public static func latitude(y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

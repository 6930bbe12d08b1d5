import XCTest
@testable import PinClusters

/// Properties every level of the index must have, checked on random pins (seeded, so a failure repeats).
final class ClusterIndexTests: XCTestCase {
    private func randomPoints(_ count: Int, seed: UInt64, firstKey: Int64 = 1) -> [ClusterPoint] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { offset in
            // Some pins spread over the world, some packed into one city (many to a pixel at low zoom).
            let packed = offset % 3 == 0
            let latitude = packed ? 48.85 + Double.random(in: -0.05...0.05, using: &generator)
                                  : Double.random(in: -60...70, using: &generator)
            let longitude = packed ? 2.35 + Double.random(in: -0.05...0.05, using: &generator)
                                   : Double.random(in: -180...180, using: &generator)
            return ClusterPoint(key: firstKey + Int64(offset), latitude: latitude, longitude: longitude)
        }
    }

    private let options = ClusterIndex.Options(radius: 48, minZoom: 0, maxZoom: 18)

    func testEveryPinIsInExactlyOneClusterAtEveryZoomAndCountsSumToThePins() {
        let points = randomPoints(3_000, seed: 1)
        let index = ClusterIndex(points: points, options: options)
        for zoom in 0...19 {
            let clusters = index.allClusters(zoom: zoom)
            XCTAssertEqual(clusters.reduce(0) { $0 + $1.count }, points.count, "counts at zoom \(zoom)")
            var seen = Set<Int64>()
            for cluster in clusters {
                let leaves = index.leaves(of: cluster)
                XCTAssertEqual(leaves.count, cluster.count, "a cluster's count is its pins at zoom \(zoom)")
                for key in leaves { XCTAssertTrue(seen.insert(key).inserted, "pin \(key) in two clusters at zoom \(zoom)") }
            }
            XCTAssertEqual(seen, Set(points.map(\.key)), "every pin in some cluster at zoom \(zoom)")
        }
    }

    func testNoTwoClustersAreCloserThanTheRadius() {
        let index = ClusterIndex(points: randomPoints(3_000, seed: 2), options: options)
        for zoom in 0...18 {
            let clusters = index.allClusters(zoom: zoom)
            let radius = options.unitRadius(zoom: zoom)
            let tree = KDTree(x: clusters.map(\.x), y: clusters.map(\.y))
            for (position, cluster) in clusters.enumerated() {
                tree.forEach(within: radius, ofX: cluster.x, y: cluster.y) { other in
                    XCTAssertEqual(other, position, "clusters \(cluster.id) and \(clusters[other].id) within "
                                   + "\(options.radius) px at zoom \(zoom)")
                }
            }
        }
    }

    func testBoundsContainEveryMemberAndSinglePinsCarryTheirKey() {
        let points = randomPoints(2_000, seed: 3)
        let byKey = Dictionary(uniqueKeysWithValues: points.map { ($0.key, $0) })
        let index = ClusterIndex(points: points, options: options)
        for zoom in [0, 3, 8, 14, 19] {
            for cluster in index.allClusters(zoom: zoom) {
                let leaves = index.leaves(of: cluster)
                for key in leaves {
                    let point = byKey[key]!
                    XCTAssertTrue(cluster.bounds.contains(x: point.x, y: point.y), "pin \(key) outside its cluster's bounds")
                }
                XCTAssertTrue(cluster.bounds.contains(x: cluster.x, y: cluster.y), "the centre lies among the pins")
                XCTAssertEqual(cluster.key, cluster.count == 1 ? leaves[0] : nil)
            }
        }
    }

    func testBeyondTheLastClusteringZoomEveryPinIsAlone() {
        let points = randomPoints(500, seed: 4)
        let index = ClusterIndex(points: points, options: options)
        let clusters = index.allClusters(zoom: 19)
        XCTAssertEqual(clusters.count, points.count)
        XCTAssertEqual(Set(clusters.compactMap(\.key)), Set(points.map(\.key)))
    }

    func testTheWorldViewOf10000PinsIsAFewMarkers() {
        let index = ClusterIndex(points: randomPoints(10_000, seed: 5), options: options)
        let world = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 2)
        XCTAssertEqual(world.reduce(0) { $0 + $1.count }, 10_000)
        // 1024 × 1024 px at zoom 2: at most one marker per 48-px disc.
        XCTAssertLessThan(world.count, 600)
        XCTAssertTrue(world.contains { $0.count > 1_000 }, "the packed city is one big cluster")
    }

    func testBoxQueryReturnsTheClustersWhoseCentresAreInside() {
        let index = ClusterIndex(points: randomPoints(2_000, seed: 6), options: options)
        let zoom = 5
        let box = UnitBounds(minX: 0.2, minY: 0.3, maxX: 0.6, maxY: 0.5)
        let expected = index.allClusters(zoom: zoom).filter { box.contains(x: $0.x, y: $0.y) }.map(\.id)
        XCTAssertEqual(Set(index.clusters(in: box, zoom: zoom).map(\.id)), Set(expected))
        XCTAssertFalse(expected.isEmpty)
        // Across the antimeridian: both sides.
        let crossing = index.clusters(west: 170, south: -60, east: -170, north: 70, zoom: zoom)
        XCTAssertTrue(crossing.allSatisfy { $0.longitude >= 170 || $0.longitude <= -170 })
        XCTAssertFalse(crossing.isEmpty)
    }

    func testExpansionZoomIsWhereTheClusterFallsApart() {
        let index = ClusterIndex(points: randomPoints(1_000, seed: 7), options: options)
        for cluster in index.allClusters(zoom: 3).filter({ $0.count > 1 }).prefix(8) {
            let expansion = index.expansionZoom(of: cluster)
            XCTAssertGreaterThan(expansion, 3)
            let leaves = Set(index.leaves(of: cluster))
            let at = { (zoom: Int) in index.allClusters(zoom: zoom).filter { !Set(index.leaves(of: $0)).isDisjoint(with: leaves) } }
            XCTAssertGreaterThan(at(expansion).count, 1, "split at its expansion zoom")
            XCTAssertEqual(at(expansion - 1).filter { Set(index.leaves(of: $0)) == leaves }.count, 1,
                           "still whole one zoom before")
        }
        let single = index.allClusters(zoom: 19)[0]
        XCTAssertEqual(index.expansionZoom(of: single), 19, "past the last clustering zoom a pin is already alone")
    }

    // MARK: Updates

    func testInsertMoveAndDeleteGiveWhatAFreshBuildGives() {
        var points = randomPoints(3_000, seed: 8)
        let before = ClusterIndex(points: points, options: options)
        points.append(contentsOf: randomPoints(50, seed: 9, firstKey: 100_000)) // inserted
        for index in stride(from: 0, to: 600, by: 7) { points[index].x = (points[index].x + 0.31).truncatingRemainder(dividingBy: 1) } // moved
        points.removeSubrange(1_000..<1_040) // deleted
        points.shuffle() // the order pins arrive in does not matter

        let change = ClusterIndex.Change(from: before.points, to: points)
        XCTAssertEqual(change.inserted.count, 50)
        XCTAssertEqual(change.moved.count, 86)
        XCTAssertEqual(change.deleted.count, 40)

        let updated = before.updated(with: points)
        let fresh = ClusterIndex(points: points, options: options)
        for zoom in 0...19 {
            XCTAssertEqual(updated.allClusters(zoom: zoom), fresh.allClusters(zoom: zoom), "zoom \(zoom)")
        }
    }

    func testNoChangeKeepsTheIndex() {
        let points = randomPoints(1_000, seed: 10)
        let index = ClusterIndex(points: points, options: options)
        XCTAssertTrue(ClusterIndex.Change(from: index.points, to: points.reversed()).isEmpty)
        XCTAssertEqual(index.updated(with: points.reversed()).allClusters(zoom: 4), index.allClusters(zoom: 4))
    }

    func testEmptyAndSinglePin() {
        let empty = ClusterIndex(points: [], options: options)
        XCTAssertTrue(empty.clusters(in: UnitBounds(minX: 0, minY: 0, maxX: 1, maxY: 1), zoom: 3).isEmpty)
        let one = ClusterIndex(points: [ClusterPoint(key: 42, latitude: 10, longitude: 20)], options: options)
        for zoom in 0...19 {
            let clusters = one.allClusters(zoom: zoom)
            XCTAssertEqual(clusters.map(\.key), [42])
            XCTAssertEqual(clusters[0].latitude, 10, accuracy: 1e-9)
            XCTAssertEqual(clusters[0].longitude, 20, accuracy: 1e-9)
        }
    }
}

/// Repeatable random numbers (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import CGtk
import Foundation
import Logging
import PinClusters

/// The pin layer's clusters: a `ClusterIndex` of the stored pins, rebuilt off the main thread
/// whenever the pins change (one build at a time; changes that arrive meanwhile are folded into
/// the next), and handed back to the main actor through the GLib main-loop bridge. The layer keeps
/// drawing the previous index until the new one arrives, so neither a pin drop nor a zoom waits
/// for a build: every zoom's clusters are in the index, a view's are one k-d tree box query.
@MainActor
final class PinLayerClusters {
    /// Marker radius in pixels for clustering: markers are at most ~50 px across.
    nonisolated static let options = ClusterIndex.Options(radius: 50, tileSize: 256, minZoom: 0, maxZoom: 18)

    private let logger: Logger?
    private(set) var index: ClusterIndex?
    /// The pins' generation: bumped on every `setPins`.
    private var generation = 0
    private var indexedGeneration = -1
    private var building = false
    private var pending: (marks: [PinMark], ahead: [PinKey: PinMark], generation: Int)?
    /// Called with the keys of pins shown ahead that the new index has where they were shown.
    private let delivered: @MainActor (_ settled: Set<PinKey>) -> Void

    init(logger: Logger?, delivered: @escaping @MainActor (_ settled: Set<PinKey>) -> Void) {
        self.logger = logger
        self.delivered = delivered
    }

    /// Whether the drawn clusters lag behind the pins (a build is under way or queued).
    var isStale: Bool { indexedGeneration != generation }

    func pinsChanged(_ marks: [PinMark], ahead: [PinKey: PinMark]) {
        generation += 1
        pending = (marks, ahead, generation)
        startBuild()
    }

    private func startBuild() {
        guard !building, let job = pending else { return }
        pending = nil
        building = true
        let previous = index
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) {
                Self.build(job.marks, ahead: job.ahead, previous: previous)
            }.value
            self?.finish(result, generation: job.generation)
        }
    }

    private func finish(_ result: BuildResult, generation: Int) {
        building = false
        index = result.index
        indexedGeneration = generation
        if result.rebuilt {
            logger?.debug("cluster index built: \(result.index.points.count) pins in \(String(format: "%.1f", result.seconds * 1000)) ms")
        }
        delivered(result.settled)
        startBuild()
    }

    private struct BuildResult: Sendable {
        let index: ClusterIndex
        let seconds: Double
        let rebuilt: Bool
        let settled: Set<PinKey>
    }

    /// Runs off the main thread.
    private nonisolated static func build(_ marks: [PinMark], ahead: [PinKey: PinMark],
                                          previous: ClusterIndex?) -> BuildResult {
        let started = DispatchTime.now().uptimeNanoseconds
        let points = marks.map { ClusterPoint(key: $0.key, latitude: $0.latitude, longitude: $0.longitude) }
        let index: ClusterIndex
        let rebuilt: Bool
        // An insert, move or delete rebuilds (measured: 10,000 pins in tens of ms in a release
        // build, off this thread); an unchanged list keeps the index.
        if let previous, ClusterIndex.Change(from: previous.points, to: points).isEmpty {
            index = previous
            rebuilt = false
        } else {
            index = ClusterIndex(points: points, options: options)
            rebuilt = true
        }
        var settled = Set<PinKey>()
        if !ahead.isEmpty {
            let stored = Dictionary(marks.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            for (key, mark) in ahead {
                guard let row = stored[key] else { continue }
                if abs(row.latitude - mark.latitude) <= 1e-9 && abs(row.longitude - mark.longitude) <= 1e-9 {
                    settled.insert(key)
                }
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return BuildResult(index: index, seconds: seconds, rebuilt: rebuilt, settled: settled)
    }

    /// The clusters whose centres lie in the box (map pixels at `zoom`, origin top-left of the world).
    func clusters(minX: Double, minY: Double, maxX: Double, maxY: Double, zoom: Int) -> [Cluster] {
        guard let index else { return [] }
        let size = MapProjection.worldSize(zoom: zoom)
        let box = UnitBounds(minX: minX / size, minY: minY / size, maxX: maxX / size, maxY: maxY / size)
        return index.clusters(in: box, zoom: zoom)
    }

    /// The zoom and centre that show a cluster's pins apart: its expansion zoom, or less if its pins
    /// would not all fit in the view (but always closer than now).
    func zoomTarget(for cluster: Cluster, currentZoom: Int, viewWidth: Double, viewHeight: Double,
                    maxZoom: Int) -> (latitude: Double, longitude: Double, zoom: Int) {
        let expansion = index?.expansionZoom(of: cluster) ?? currentZoom + 1
        let bounds = cluster.bounds
        let padding = 48.0
        var fit = maxZoom
        while fit > 0 {
            let size = MapProjection.worldSize(zoom: fit)
            if (bounds.maxX - bounds.minX) * size <= viewWidth - 2 * padding
                && (bounds.maxY - bounds.minY) * size <= viewHeight - 2 * padding { break }
            fit -= 1
        }
        let zoom = min(maxZoom, max(currentZoom + 1, min(expansion, fit)))
        let centreY = (bounds.minY + bounds.maxY) / 2, centreX = (bounds.minX + bounds.maxX) / 2
        return (Mercator.latitude(y: centreY), Mercator.longitude(x: centreX), zoom)
    }
}

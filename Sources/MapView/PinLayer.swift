import CGtk
import COsmGpsMap
import COsmGpsMapShims
import Foundation
import GLibSwift
import Logging
import PinClusters

/// Identity of a pin on the map: its store id, or a negative placeholder while its insert is in flight.
public typealias PinKey = Int64

/// A pin as the map draws it.
public struct PinMark: Equatable, Sendable {
    public var key: PinKey
    public var latitude: Double
    public var longitude: Double
    public var tint: PinTint
    /// With clustering: never joins a cluster, so it is always drawn as itself, above the clusters
    /// (On the Map's own pin among its classmates).
    public var standsApart: Bool

    public init(key: PinKey, latitude: Double, longitude: Double, tint: PinTint = .red, standsApart: Bool = false) {
        self.key = key
        self.latitude = latitude
        self.longitude = longitude
        self.tint = tint
        self.standsApart = standsApart
    }
}

/// Pins as the layer keeps them: north to south (the draw order), with their positions in radians, their
/// keys and their colours. Making one costs a sort of every pin: a library's owner makes it off the main thread.
public struct PinSet: Equatable, Sendable {
    public let marks: [PinMark]
    let radians: [(Float, Float)]
    let keys: Set<PinKey>
    /// Colours other than red, by key (clusters know only keys).
    let tints: [PinKey: PinTint]
    /// The pins that join clusters, and those that stand apart (both north to south).
    let clustered: [PinMark]
    let apart: [PinMark]

    public init(_ marks: [PinMark]) {
        self.marks = marks.sorted { $0.latitude > $1.latitude }
        clustered = self.marks.filter { !$0.standsApart }
        apart = self.marks.filter(\.standsApart)
        radians = self.marks.map { (Float($0.latitude * .pi / 180), Float($0.longitude * .pi / 180)) }
        keys = Set(self.marks.map(\.key))
        tints = Dictionary(self.marks.lazy.filter { $0.tint != .red }.map { ($0.key, $0.tint) },
                           uniquingKeysWith: { first, _ in first })
    }

    public static func == (left: PinSet, right: PinSet) -> Bool { left.marks == right.marks }
}

/// Draws every pin in one osm-gps-map layer: the layer paints on each frame (also while the map is
/// dragged) on top of the tiles, so thousands of pins cost one pass of cairo blits, not widgets or
/// full map redraws. With `clustering`, pins that would overlap at the current zoom are drawn as one
/// marker with their count (see `PinLayerClusters`); single pins, and pins that stand apart, look and
/// behave as without it.
@MainActor
public final class PinLayer {
    private let map: UnsafeMutablePointer<OsmGpsMap>
    private let lifetime: WidgetLifetime
    /// The stored pins, northern first (pins further south, lower on screen, overlap them), with their
    /// positions in radians, keys and colours.
    private var stored = PinSet([])
    /// Pins shown ahead of the store: just dropped or dragged, until the store's rows catch up.
    private var ahead: [PinKey: PinMark] = [:]
    /// Placeholder keys whose inserts finished, and the stored ids they became.
    private var aliases: [PinKey: PinKey] = [:]
    /// The pin under the pointer while it is being placed or dragged: drawn on top.
    public private(set) var floating: PinMark?
    private var images: PinImages
    private var markerImages: ClusterMarkerImages
    /// Bumped on every change that alters what the cached pins look like.
    private var version = 0
    private var cache: PinCache?

    /// Frame statistics, for the benchmark and debug logging.
    public private(set) var framesDrawn = 0
    public private(set) var lastFrameSeconds = 0.0
    public private(set) var lastFramePinsDrawn = 0
    /// With clustering: the counts of the cluster markers (count > 1) in the last painted view, and
    /// the pins they stand for. For tests and the benchmark.
    public var visibleClusterCounts: [Int] { cache?.clusters.filter { $0.count > 1 }.map(\.count) ?? [] }

    public let isClustering: Bool
    private var clusters: PinLayerClusters?
    private let logger: Logger?

    /// `clustering`: draw pins that would overlap as one marker with their count (built off the main
    /// thread); `logger` gets the index's build times at debug level.
    public init(map: UnsafeMutablePointer<OsmGpsMap>, clustering: Bool = false, logger: Logger? = nil) {
        self.map = map
        self.isClustering = clustering
        self.logger = logger
        lifetime = WidgetLifetime(map)
        images = PinImages(scale: gtk_widget_get_scale_factor(map.widget))
        markerImages = ClusterMarkerImages(scale: images.scale)
        addDrawingLayer(to: map) { [weak self] cr in self?.draw(cr) }
        if clustering {
            clusters = PinLayerClusters(logger: logger) { [weak self] settled in self?.clustersArrived(settled) }
        }
    }

    public var pins: [PinMark] { stored.marks }

    public func setPins(_ newMarks: [PinMark]) {
        setPins(PinSet(newMarks))
    }

    /// Shows `pins`, prepared beforehand (off the main thread, for a big library).
    public func setPins(_ pins: PinSet) {
        stored = pins
        version += 1
        if let clusters {
            // Pins standing apart are drawn as stored at once; the others are shown ahead until the
            // clusters drawn include them where they are.
            settleAhead(among: stored.apart)
            clusters.pinsChanged(stored.clustered, ahead: ahead)
        } else {
            settleAhead(among: stored.marks)
        }
        redraw()
    }

    /// Pins shown ahead that `rows` now have where they were shown are no longer ahead.
    private func settleAhead(among rows: [PinMark]) {
        guard !ahead.isEmpty, !rows.isEmpty else { return }
        let rows = Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        ahead = ahead.filter { key, mark in
            guard let row = rows[key] else { return true } // not stored yet: keep showing it
            return abs(row.latitude - mark.latitude) > 1e-9 || abs(row.longitude - mark.longitude) > 1e-9
        }
    }

    /// A new cluster index is in: pins shown ahead that it has where they were shown are no longer ahead.
    private func clustersArrived(_ settled: Set<PinKey>) {
        for key in settled { ahead.removeValue(forKey: key) }
        version += 1
        redraw()
    }

    public func setFloating(_ mark: PinMark?) {
        let newMark = mark.map(resolved)
        if newMark?.key != floating?.key { version += 1 } // the cache leaves the floating pin out
        floating = newMark
        redraw()
    }

    /// The mark under its stored id, if it was a placeholder whose insert has finished.
    public func resolved(_ mark: PinMark) -> PinMark {
        var mark = mark
        mark.key = aliases[mark.key] ?? mark.key
        return mark
    }

    /// Shows `mark` where the store has not put it yet.
    public func showAhead(_ mark: PinMark) {
        let mark = resolved(mark)
        ahead[mark.key] = mark
        version += 1
        redraw()
    }

    /// A placeholder's insert finished: it is now the stored pin `id`.
    public func rekey(from placeholder: PinKey, to id: PinKey) {
        aliases[placeholder] = id
        if var mark = ahead.removeValue(forKey: placeholder) {
            mark.key = id
            ahead[id] = mark
        }
        if floating?.key == placeholder { floating?.key = id }
        version += 1
        redraw()
    }

    /// Stops showing the pin ahead of the store: a placeholder whose insert failed disappears, a
    /// stored pin whose move failed is drawn at its stored place again.
    public func forget(_ key: PinKey) {
        ahead.removeValue(forKey: key)
        if floating?.key == key { floating = nil }
        version += 1
        redraw()
    }

    public func redraw() {
        guard lifetime.isAlive else { return }
        gtk_widget_queue_draw(map.widget)
    }

    /// The top-most pin whose drawn shape covers the point (map widget coordinates).
    public func pin(atX x: Double, y: Double) -> PinMark? {
        if let floating, hit(floating.latitude, floating.longitude, x, y) { return floating }
        if isClustering {
            for mark in ahead.values where mark.key != floating?.key {
                if hit(mark.latitude, mark.longitude, x, y) { return mark }
            }
            for mark in stored.apart.reversed() where mark.key != floating?.key && ahead[mark.key] == nil {
                if hit(mark.latitude, mark.longitude, x, y) { return mark }
            }
            for cluster in (cache?.clusters ?? []).reversed() {
                guard let key = singlePin(cluster) else { continue }
                if hit(cluster.latitude, cluster.longitude, x, y) {
                    return PinMark(key: key, latitude: cluster.latitude, longitude: cluster.longitude,
                                   tint: stored.tints[key] ?? .red)
                }
            }
            return nil
        }
        for mark in ahead.values where !stored.keys.contains(mark.key) {
            if mark.key != floating?.key, hit(mark.latitude, mark.longitude, x, y) { return mark }
        }
        for index in stored.marks.indices.reversed() {
            let mark = ahead[stored.marks[index].key] ?? stored.marks[index]
            if mark.key == floating?.key { continue }
            if hit(mark.latitude, mark.longitude, x, y) { return mark }
        }
        return nil
    }

    /// The cluster marker (two pins or more) under the point, if any; single pins are `pin(atX:y:)`'s.
    public func cluster(atX x: Double, y: Double) -> Cluster? {
        guard isClustering else { return nil }
        for cluster in (cache?.clusters ?? []).reversed() where cluster.count > 1 {
            let (sx, sy) = screenPoint(Float(cluster.latitude * .pi / 180), Float(cluster.longitude * .pi / 180))
            if ClusterMarker.contains(count: cluster.count, dx: x - Double(sx), dy: y - Double(sy)) { return cluster }
        }
        return nil
    }

    /// Zooms the map so the cluster falls apart into smaller ones or pins, keeping its pins in view where it can.
    public func zoom(into cluster: Cluster) {
        guard lifetime.isAlive, let clusters else { return }
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        let target = clusters.zoomTarget(for: cluster, currentZoom: Int(zoom),
                                         viewWidth: Double(gtk_widget_get_allocated_width(map.widget)),
                                         viewHeight: Double(gtk_widget_get_allocated_height(map.widget)),
                                         maxZoom: MapWidget.maxZoom)
        logger?.debug("zooming into a cluster of \(cluster.count) pins: zoom \(zoom) → \(target.zoom) at \(String(format: "%.5f, %.5f", target.latitude, target.longitude))")
        osm_gps_map_set_center_and_zoom(map, Float(target.latitude), Float(target.longitude), Int32(target.zoom))
    }

    /// The key of a cluster that is a single stored pin drawn where the index has it (not one being
    /// moved, shown ahead, or deleted since the index was built).
    private func singlePin(_ cluster: Cluster) -> PinKey? {
        guard let key = cluster.key, key != floating?.key, ahead[key] == nil, stored.keys.contains(key) else { return nil }
        return key
    }

    private func hit(_ latitude: Double, _ longitude: Double, _ x: Double, _ y: Double) -> Bool {
        let (sx, sy) = screenPoint(Float(latitude * .pi / 180), Float(longitude * .pi / 180))
        return images.shape.contains(dx: x - Double(sx), dy: y - Double(sy))
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
        if scale != images.scale {
            images = PinImages(scale: scale)
            markerImages = ClusterMarkerImages(scale: scale)
            version += 1
        }
        let width = Int(gtk_widget_get_allocated_width(map.widget))
        let height = Int(gtk_widget_get_allocated_height(map.widget))
        var originX: Int32 = 0, originY: Int32 = 0
        vt_osm_gps_map_get_origin(map, &originX, &originY)
        var latitude = 0.0, longitude = 0.0
        var zoom: Int32 = 0
        vt_osm_gps_map_get_view(map, &latitude, &longitude, &zoom)
        let key = PinCache.Key(originX: originX, originY: originY, zoom: zoom, version: version,
                               width: width, height: height, scale: scale)
        // While the map is dragged its origin stays put and everything moves by the drag offset:
        // a fixed reference point tells the offset.
        let reference = screenPoint(0, 0)
        if cache == nil || !cache!.isUsable(for: key, reference: reference) {
            let target = cairo_get_target(cr)!
            let canvas = cache.flatMap { $0.canvas.fits(width: width, height: height, scale: scale, target: target) ? $0.canvas : nil }
                ?? PinCanvas(width: width, height: height, scale: scale, like: target)
            if clusters != nil {
                let margin = PinCache.margin
                let shown = clusters!.clusters(minX: Double(originX) - margin, minY: Double(originY) - margin,
                                               maxX: Double(originX) + Double(width) + margin,
                                               maxY: Double(originY) + Double(height) + margin, zoom: Int(zoom))
                    .sorted { $0.y < $1.y } // northern first, as the pins
                cache = PinCache(key: key, reference: reference, canvas: canvas, clusters: shown) { cr, margin in
                    self.drawClusters(shown, cr, canvas: canvas)
                }
                if let logger, logger.logLevel <= .debug {
                    let markers = shown.filter { $0.count > 1 }
                    logger.debug("clusters shown at zoom \(zoom): \(markers.count) markers for \(markers.reduce(0) { $0 + $1.count }) pins, \(shown.count - markers.count) single pins")
                }
            } else {
                cache = PinCache(key: key, reference: reference, canvas: canvas) { cr, margin in
                    self.drawPins(cr, canvas: canvas, width: Double(width), height: Double(height), margin: margin)
                }
            }
        }
        if let cache {
            cache.paint(cr, reference: reference)
        }
        if let floating {
            let (sx, sy) = screenPoint(Float(floating.latitude * .pi / 180), Float(floating.longitude * .pi / 180))
            images[floating.tint].paint(cr, tipX: Double(sx), tipY: Double(sy))
        }
        framesDrawn += 1
        lastFramePinsDrawn = (cache?.pinsDrawn ?? 0) + (floating == nil ? 0 : 1)
        lastFrameSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    /// Paints the clusters (single pins as pins), the pins standing apart and the pins shown ahead of
    /// the store, all but the floating one, into `cr`; returns how many pins it painted (a marker counts as one).
    private func drawClusters(_ shown: [Cluster], _ cr: OpaquePointer, canvas: PinCanvas) -> Int {
        var drawn = 0
        func paintPin(_ sx: Int32, _ sy: Int32, _ tint: PinTint) {
            images[tint].paint(cr, tipX: Double(sx), tipY: Double(sy))
            canvas.noteDrawn(x: Double(sx) - PinImage.anchor.x, y: Double(sy) - PinImage.anchor.y,
                             width: PinImage.width, height: PinImage.height)
            drawn += 1
        }
        markerImages.begin(cr)
        for cluster in shown {
            let (sx, sy) = screenPoint(Float(cluster.latitude * .pi / 180), Float(cluster.longitude * .pi / 180))
            if cluster.count > 1 {
                let half = markerImages.draw(cr, x: sx, y: sy, count: cluster.count)
                canvas.noteDrawn(x: Double(sx) - half, y: Double(sy) - half, width: 2 * half, height: 2 * half)
                drawn += 1
            } else if let key = singlePin(cluster) {
                paintPin(sx, sy, stored.tints[key] ?? .red)
            }
        }
        for mark in stored.apart where mark.key != floating?.key && ahead[mark.key] == nil {
            let (sx, sy) = screenPoint(Float(mark.latitude * .pi / 180), Float(mark.longitude * .pi / 180))
            paintPin(sx, sy, mark.tint)
        }
        for mark in ahead.values where mark.key != floating?.key {
            let (sx, sy) = screenPoint(Float(mark.latitude * .pi / 180), Float(mark.longitude * .pi / 180))
            paintPin(sx, sy, mark.tint)
        }
        return drawn
    }

    /// Paints every pin but the floating one into `cr`; returns how many it painted.
    private func drawPins(_ cr: OpaquePointer, canvas: PinCanvas, width: Double, height: Double, margin: Double) -> Int {
        var drawn = 0
        func paint(_ sx: Int32, _ sy: Int32, _ tint: PinTint) {
            let x = Double(sx), y = Double(sy)
            // Cull pins whose image lies wholly outside the (extended) area.
            if x + PinImage.width < -margin || x - PinImage.width > width + margin
                || y < -margin || y - PinImage.height > height + margin { return }
            images[tint].paint(cr, tipX: x, tipY: y)
            canvas.noteDrawn(x: x - PinImage.anchor.x, y: y - PinImage.anchor.y, width: PinImage.width, height: PinImage.height)
            drawn += 1
        }
        for index in stored.marks.indices {
            let mark = stored.marks[index]
            if mark.key == floating?.key { continue }
            if let moved = ahead[mark.key] {
                let point = screenPoint(Float(moved.latitude * .pi / 180), Float(moved.longitude * .pi / 180))
                paint(point.0, point.1, moved.tint)
            } else {
                let point = screenPoint(stored.radians[index].0, stored.radians[index].1)
                paint(point.0, point.1, mark.tint)
            }
        }
        for mark in ahead.values where !stored.keys.contains(mark.key) && mark.key != floating?.key {
            let point = screenPoint(Float(mark.latitude * .pi / 180), Float(mark.longitude * .pi / 180))
            paint(point.0, point.1, mark.tint)
        }
        return drawn
    }
}


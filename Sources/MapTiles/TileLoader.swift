import Foundation
import WebAccess

/// Keeps the disk cache filled for the tiles the map shows: fetches missing tiles and revalidates stale ones (a few
/// at a time, nearest the centre first; a stale tile's request carries its `If-None-Match` / `If-Modified-Since`,
/// and a `304` renews it without a download), drops fetches for tiles no longer in view, and puts basemap stand-ins
/// where a tile cannot be had. Everything runs on its own queue; `onEvent` is called there too (hop to the main
/// thread yourself).
public final class TileLoader: @unchecked Sendable {
    // @unchecked: every mutable field is touched only on `queue`.

    public enum Event: Sendable, Equatable {
        /// A real tile was written. `replacedStandIn`: the map may still hold the stand-in it drew before.
        case arrived(TileID, replacedStandIn: Bool)
        /// The server said the kept tile has not changed (`304`): same bytes, fresh again.
        case renewed(TileID)
        /// A basemap tile was put in the cache for `TileID` (the tile itself or an ancestor).
        case standIn(TileID)
        /// The tile server could not be reached; once per spell, until it answers again (a tile, or a 304).
        case unreachable(String)
        /// The server answered (a tile, or a 304) after it had been unreachable.
        case reachable
        /// The basemap failed while being read; reported once.
        case basemapFailed(String)
    }

    public struct Configuration: Sendable {
        public var template: TileURLTemplate
        public var cache: TileCache
        /// Finds the basemap file (nil: there is none); called once, on the loader's queue, when first needed.
        public var basemap: @Sendable () -> URL?
        /// Sent as User-Agent (the tile policy asks apps to identify themselves).
        public var userAgent: String
        public var concurrentFetches = 4
        public var timeout: TimeInterval = 20
        /// How tiles are fetched: the proxies and trust roots of the process's environment unless told otherwise.
        public var web: WebClient = .environment
        /// A tile larger than this is not a tile.
        public var maxTileBytes = 4 << 20
        /// The clock tiles' freshness is read and counted by (tests move it on).
        public var now: @Sendable () -> Date = { Date() }

        public init(template: TileURLTemplate, cache: TileCache, basemap: @escaping @Sendable () -> URL?,
                    userAgent: String) {
            self.template = template
            self.cache = cache
            self.basemap = basemap
            self.userAgent = userAgent
        }
    }

    private let configuration: Configuration
    private let onEvent: @Sendable (Event) -> Void
    private let queue = DispatchQueue(label: "map-tiles", qos: .userInitiated)

    private var wanted: Set<TileID> = []
    private var pending: [TileID] = []
    /// Fetches on the wire, each with a number of its own, so the answer of a fetch cancelled and started
    /// again is not taken for the new one's.
    private var inFlight: [TileID: (fetch: Int, transfer: WebClient.Transfer?)] = [:]
    private var fetchesStarted = 0
    private var unreachable = false
    private var basemapState: BasemapState = .notOpened

    private enum BasemapState {
        case notOpened
        case open(Basemap)
        case unavailable
    }

    public init(_ configuration: Configuration, onEvent: @escaping @Sendable (Event) -> Void) {
        self.configuration = configuration
        self.onEvent = onEvent
        // The first fetch would otherwise also pay for setting up the client (its event loops, its pool) while
        // the map waits; done here, off the main thread, it overlaps the window's own start.
        let (web, first) = (configuration.web, configuration.template.url(for: TileID(zoom: 0, x: 0, y: 0)))
        queue.async { if let first { web.prepare(for: first) } }
    }

    deinit {
        for (_, fetch) in inFlight { fetch.transfer?.cancel() }
    }

    /// The tiles the map shows now, most wanted first, replacing the list (fetches for the others are cancelled).
    /// Call again to retry: `probe` fetches the first even if fresh, so a view of saved tiles learns the server is back.
    public func show(_ tiles: [TileID], probe: Bool = false) {
        queue.async { self.update(tiles, probe: probe) }
    }

    /// Cancels every fetch (the map is going away).
    public func stop() {
        queue.async {
            self.wanted = []
            self.pending = []
            for fetch in self.inFlight.values { fetch.transfer?.cancel() }
            self.inFlight = [:]
        }
    }

    /// Blocks until everything queued so far has run (tests).
    func waitUntilIdle() { queue.sync {} }

    // MARK: - On the queue

    private func update(_ tiles: [TileID], probe: Bool) {
        wanted = Set(tiles)
        for (tile, fetch) in inFlight where !wanted.contains(tile) {
            fetch.transfer?.cancel()
            inFlight[tile] = nil
        }
        pending = []
        let now = configuration.now()
        for tile in tiles where inFlight[tile] == nil {
            switch configuration.cache.state(of: tile, now: now) {
            case .fresh:
                continue
            case .missing:
                // Known to be offline: show the world at once rather than after a failed round trip.
                if unreachable { putStandIn(for: tile) }
                pending.append(tile)
            case .stale, .standIn:
                pending.append(tile)
            }
        }
        if probe, pending.isEmpty, inFlight.isEmpty, let first = tiles.first { pending.append(first) }
        startFetches()
        _ = openBasemap() // once the first fetches are out: a broken basemap is reported on start, not first offline
    }

    private func startFetches() {
        while inFlight.count < configuration.concurrentFetches, !pending.isEmpty {
            let tile = pending.removeFirst()
            guard wanted.contains(tile), inFlight[tile] == nil else { continue }
            guard let url = configuration.template.url(for: tile) else { continue }
            fetchesStarted += 1
            let fetch = fetchesStarted
            // A kept tile is asked for only if it changed; nothing here ever asks caches on the way to be bypassed.
            let conditions = configuration.cache.freshness(of: tile)?.conditionalHeaders ?? []
            // Its answer comes back through the queue, so it finds the fetch recorded below.
            let transfer = configuration.web.start(url, headers: [("User-Agent", configuration.userAgent)] + conditions,
                                                   timeout: configuration.timeout,
                                                   maxBytes: configuration.maxTileBytes) { [weak self] result in
                guard let self else { return }
                self.queue.async { self.finished(tile, fetch: fetch, result) }
            }
            inFlight[tile] = (fetch, transfer)
        }
    }

    private func finished(_ tile: TileID, fetch: Int, _ result: Result<WebResponse, WebFailure>) {
        guard inFlight[tile]?.fetch == fetch else { return } // cancelled: no longer in view
        inFlight[tile] = nil
        defer { startFetches() }
        let response: WebResponse
        switch result {
        case .failure(.cancelled):
            return
        case .failure(let failure):
            if !unreachable {
                unreachable = true
                onEvent(.unreachable(failure.description))
            }
            putStandInIfMissing(tile)
            return
        case .success(let answer):
            response = answer
        }
        let receivedAt = configuration.now()
        let fields = response.headers.map { (name: $0.name, value: $0.value) }
        if response.status == 304 {
            guard let kept = configuration.cache.freshness(of: tile) else {
                putStandInIfMissing(tile) // nothing kept to renew (it went meanwhile)
                return
            }
            let renewed = kept.renewed(byNotModified: fields, receivedAt: receivedAt)
            configuration.cache.renew(tile, renewed)
            markReachable()
            onEvent(.renewed(tile))
            return
        }
        let data = response.body
        guard (200..<300).contains(response.status), Self.looksLikeAnImage(data) else {
            // The server answered (it is reachable) but has no such tile, or sent something that is not an
            // image (an error page with 200): the basemap is better than white, and nothing bad is cached.
            putStandInIfMissing(tile)
            return
        }
        let replacedStandIn = configuration.cache.state(of: tile) == .standIn
        let freshness = TileFreshness(response: fields, receivedAt: receivedAt)
        do {
            try configuration.cache.store(data, for: tile, freshness: freshness)
        } catch {
            return // a full disk: the map keeps what it has
        }
        markReachable()
        onEvent(.arrived(tile, replacedStandIn: replacedStandIn))
    }

    private func markReachable() {
        if unreachable {
            unreachable = false
            onEvent(.reachable)
        }
    }

    /// PNG, JPEG, GIF or WebP by their first bytes: what tile servers send (the map decodes it later).
    static func looksLikeAnImage(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(12))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        return starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
    }

    private func putStandInIfMissing(_ tile: TileID) {
        if configuration.cache.state(of: tile) == .missing { putStandIn(for: tile) }
    }

    /// Opens the basemap the first time it is needed (off the main thread); a missing or broken file is
    /// reported once and then the map simply has no stand-ins.
    private func openBasemap() -> Basemap? {
        switch basemapState {
        case .open(let basemap): return basemap
        case .unavailable: return nil
        case .notOpened:
            guard let url = configuration.basemap() else {
                basemapState = .unavailable
                onEvent(.basemapFailed("No world basemap (\(Basemap.fileName)) was found; offline, the map shows only tiles seen before."))
                return nil
            }
            do {
                let basemap = try Basemap(contentsOf: url)
                basemapState = .open(basemap)
                return basemap
            } catch {
                basemapState = .unavailable
                onEvent(.basemapFailed(error.description))
                return nil
            }
        }
    }

    private func putStandIn(for tile: TileID) {
        guard let basemap = openBasemap() else { return }
        let standIn = basemap.standInTile(for: tile)
        guard configuration.cache.state(of: standIn) == .missing else { return } // a real tile or a stand-in is there
        do {
            guard let data = try basemap.tileData(standIn) else { return }
            if try configuration.cache.storeStandIn(data, for: standIn) { onEvent(.standIn(standIn)) }
        } catch let problem as Basemap.Problem {
            basemapState = .unavailable
            onEvent(.basemapFailed(problem.description))
        } catch {
            return // the cache folder cannot be written: nothing better to show
        }
    }
}

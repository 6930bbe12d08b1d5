import MapTiles

/// What the map asks of whoever keeps its tiles on disk: the tiles in view now, and an end when the map goes.
public protocol TileFetching: AnyObject, Sendable {
    /// Replaces the list of wanted tiles, most wanted first; `probe` fetches the first even if fresh.
    func show(_ tiles: [TileID], probe: Bool)
    func stop()
}

/// Starts one map's tile fetching as configured, its events reported on any thread; each app's main.swift passes
/// the live one (`TileLoader.init`), so no map makes a network client itself.
public typealias TileFetcherFactory =
    @Sendable (TileLoader.Configuration, @escaping @Sendable (TileLoader.Event) -> Void) -> any TileFetching

extension TileLoader: TileFetching {}

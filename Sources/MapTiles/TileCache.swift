import Foundation
import KeptFiles

/// The map's tile files as osm-gps-map reads them (`<folder>/Z/X/Y.png`), and what the tile server said about
/// each (`TileFreshness`, kept in `TileFreshnessDatabase` beside them): a tile is fresh as long as that says, a
/// week from its file's time where nothing was said. A basemap stand-in has an epoch mtime, so it is always stale,
/// never a real tile. Stale tiles stay on disk and are drawn: offline, they are the map.
public struct TileCache: Sendable {
    static let standInDate = Date(timeIntervalSince1970: 0)

    public enum State: Equatable, Sendable {
        case missing
        case fresh
        case stale
        /// A basemap tile standing in for a real one.
        case standIn
    }

    public let folder: URL

    private let records: TileFreshnessDatabase

    public init(folder: URL) {
        self.folder = folder
        records = TileFreshnessDatabase(folder: folder)
    }

    public func fileURL(for tile: TileID) -> URL {
        folder.appendingPathComponent("\(tile.zoom)/\(tile.x)/\(tile.y).png", isDirectory: false)
    }

    /// Reads the file's modification time and the tile's record (disk reads: call it off the main thread).
    public func state(of tile: TileID, now: Date = Date()) -> State {
        guard let modified = fileModified(tile) else { return .missing }
        if modified == Self.standInDate { return .standIn }
        let freshUntil = records.freshness(of: tile)?.freshUntil
            ?? modified.addingTimeInterval(TileFreshness.minimumLifetime)
        return now < freshUntil ? .fresh : .stale
    }

    /// What the server said about a real tile kept here; nil for a stand-in, a missing tile, or a tile kept
    /// without a record (by an older version).
    public func freshness(of tile: TileID) -> TileFreshness? {
        guard let modified = fileModified(tile), modified != Self.standInDate else { return nil }
        return records.freshness(of: tile)
    }

    /// Writes a real tile whole, over the old one, so the map never reads half a file; then what the server said
    /// about it (nil: nothing, so a week from now).
    public func store(_ data: Data, for tile: TileID, freshness: TileFreshness? = nil) throws {
        let target = try folderMade(for: tile)
        try WholeFile.write(data, to: target.path, permissions: 0o644)
        // The old tile's record must not outlive it: failing that, the new one goes by its file's time.
        if !records.record(freshness, for: tile) { records.record(nil, for: tile) }
    }

    /// A `304 Not Modified` for a real tile kept here: the same bytes, fresh again. False when there is no real
    /// tile to renew (it went, or a stand-in is there) or the record could not be written.
    @discardableResult
    public func renew(_ tile: TileID, _ freshness: TileFreshness) -> Bool {
        guard let modified = fileModified(tile), modified != Self.standInDate else { return false }
        return records.record(freshness, for: tile)
    }

    /// Puts a basemap tile where there is no file yet; never replaces one (a real tile is worth more than any
    /// stand-in). Returns false when a file was already there.
    @discardableResult
    public func storeStandIn(_ data: Data, for tile: TileID) throws -> Bool {
        let target = try folderMade(for: tile)
        let epoch = timespec(tv_sec: Int(Self.standInDate.timeIntervalSince1970), tv_nsec: 0)
        do {
            try WholeFile.write(data, to: target.path, permissions: 0o644, modified: epoch, replacing: false)
        } catch where error.code == .EEXIST {
            return false
        }
        return true
    }

    /// The tile file's modification time, nil when there is no file.
    private func fileModified(_ tile: TileID) -> Date? {
        var info = stat()
        guard stat(fileURL(for: tile).path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
    }

    /// The tile's file, its folder made if it was not there.
    private func folderMade(for tile: TileID) throws -> URL {
        let target = fileURL(for: tile)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        return target
    }
}

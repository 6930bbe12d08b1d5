import Foundation
import KeptFiles

/// The map's tile files as osm-gps-map reads them (`<folder>/Z/X/Y.png`), refetched after `maximumAge` as the
/// OpenStreetMap tile policy asks; a basemap stand-in has an epoch mtime, so it is always stale, never a real tile.
public struct TileCache: Sendable {
    public static let maximumAge: TimeInterval = 7 * 24 * 60 * 60
    static let standInDate = Date(timeIntervalSince1970: 0)

    public enum State: Equatable, Sendable {
        case missing
        case fresh
        case stale
        /// A basemap tile standing in for a real one.
        case standIn
    }

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public func fileURL(for tile: TileID) -> URL {
        folder.appendingPathComponent("\(tile.zoom)/\(tile.x)/\(tile.y).png", isDirectory: false)
    }

    /// Reads the file's modification time (a `stat`: call it off the main thread).
    public func state(of tile: TileID, now: Date = Date()) -> State {
        var info = stat()
        guard stat(fileURL(for: tile).path, &info) == 0 else { return .missing }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        if modified == Self.standInDate { return .standIn }
        return now.timeIntervalSince(modified) > Self.maximumAge ? .stale : .fresh
    }

    /// Writes a real tile whole, over the old one, so the map never reads half a file.
    public func store(_ data: Data, for tile: TileID) throws {
        let target = try folderMade(for: tile)
        try WholeFile.write(data, to: target.path, permissions: 0o644)
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

    /// The tile's file, its folder made if it was not there.
    private func folderMade(for tile: TileID) throws -> URL {
        let target = fileURL(for: tile)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        return target
    }
}

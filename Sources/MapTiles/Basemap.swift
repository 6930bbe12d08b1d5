import Foundation
import GRDB
import Translations

/// The built-in world map (an MBTiles file, see data/basemap/README.md) drawn where no real tile can be had.
/// Read-only; safe to use from any thread.
public final class Basemap: Sendable {
    public static let environmentVariable = "VIRTUAL_TOURIST_BASEMAP"
    public static let fileName = "world.mbtiles"

    public enum Problem: Error, CustomStringConvertible, Equatable {
        case missing(String)
        case unreadable(String, reason: String)
        case empty(String)

        public var description: String {
            switch self {
            case .missing(let path):
                return "The world basemap \(path) is missing; offline, the map shows only tiles seen before."
            case .unreadable(let path, let reason):
                return "The world basemap \(path) cannot be read (\(reason)); offline, the map shows only tiles seen before."
            case .empty(let path):
                return "The world basemap \(path) holds no tiles; offline, the map shows only tiles seen before."
            }
        }
    }

    public let url: URL
    /// The deepest zoom level the basemap has; deeper views are drawn from its tiles there, enlarged.
    public let maxZoom: Int
    private let database: DatabaseQueue

    /// Opens the file and checks that it is an MBTiles database with tiles in it.
    public init(contentsOf url: URL) throws(Problem) {
        let path = url.path
        guard FileManager.default.isReadableFile(atPath: path) else { throw .missing(path) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "basemap"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            let deepest = try database.read { db in
                try Int.fetchOne(db, sql: "SELECT MAX(zoom_level) FROM tiles")
            }
            guard let deepest else { throw Problem.empty(path) }
            maxZoom = deepest
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .unreadable(path, reason: Self.reason(error))
        }
        self.url = url
    }

    /// The PNG of one tile, nil where the basemap has none. MBTiles counts rows from the south (TMS).
    public func tileData(_ tile: TileID) throws(Problem) -> Data? {
        let row = tile.tilesPerSide - 1 - tile.y
        do {
            let data = try database.read { db in
                try Data.fetchOne(db, sql: """
                    SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?
                    """, arguments: [tile.zoom, tile.x, row])
            }
            guard let data else { return nil }
            guard data.starts(with: Self.pngSignature) else {
                throw Problem.unreadable(url.path, reason: "tile \(tile) is not a PNG image")
            }
            return data
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .unreadable(url.path, reason: Self.reason(error))
        }
    }

    /// The basemap tile to put in the cache for `tile`: the tile itself where the basemap goes that deep, else its
    /// ancestor at the basemap's deepest level (the map enlarges an ancestor when it lacks a tile).
    public func standInTile(for tile: TileID) -> TileID {
        tile.zoom <= maxZoom ? tile : tile.ancestor(atZoom: maxZoom)
    }

    private static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    private static func reason(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return String(describing: error)
    }

    /// Where the basemap is: the environment variable if set, else installed beside the program
    /// (`<prefix>/bin/app` → `<prefix>/share/virtual-tourist/world.mbtiles`), else, for a SwiftPM build tree
    /// (`.build/<triple>/debug/app`), the source tree's `data/basemap`. Nil when none of them exists.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL? = Basemap.runningExecutable) -> URL? {
        if let value = environment[environmentVariable], !value.isEmpty {
            return URL(fileURLWithPath: value) // named explicitly: used even if broken, so the problem is reported
        }
        guard let executable else { return nil }
        var candidates: [URL] = []
        candidates.append(InstalledData.shareFolder(besideExecutable: executable)
            .appendingPathComponent("virtual-tourist/\(fileName)"))
        var ancestor = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            ancestor = ancestor.deletingLastPathComponent()
            candidates.append(ancestor.appendingPathComponent("data/basemap/\(fileName)"))
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The running program's file with symbolic links resolved (`.build/debug` is a link).
    public static var runningExecutable: URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }
}

import Foundation
import GRDB

/// What the tile server said about each kept tile (`TileFreshness`), in `tile-freshness.sqlite` beside the tile
/// files. A cache from before this file has tiles and no records, and keeps working: a tile without a record is
/// fresh for a week from its file's time, then fetched whole (nothing to revalidate with). A file that cannot be
/// opened or written leaves every tile in that state; a damaged one is started again (it is only a cache).
/// Thread-safe; its calls read or write the disk, so call them off the main thread.
final class TileFreshnessDatabase: @unchecked Sendable {
    // @unchecked: `state` is touched only under `lock`; a DatabaseQueue is thread-safe.
    static let fileName = "tile-freshness.sqlite"

    let url: URL
    private let lock = NSLock()
    private var state: State = .notOpened

    private enum State {
        case notOpened
        case open(DatabaseQueue)
        case unavailable
    }

    init(folder: URL) {
        url = folder.appendingPathComponent(Self.fileName, isDirectory: false)
    }

    /// The schema, one migration per change, so the file of any earlier version is brought up to date.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-tile-freshness") { db in
            try db.create(table: "tile", options: .withoutRowID) { t in
                t.column("zoom", .integer).notNull()
                t.column("x", .integer).notNull()
                t.column("y", .integer).notNull()
                t.column("etag", .text)
                t.column("last_modified", .text)
                t.column("fresh_until", .double).notNull() // seconds since 1970
                t.primaryKey(["zoom", "x", "y"])
            }
        }
        return migrator
    }

    // MARK: - Reading

    /// The tile's record, nil when it has none (or there are no records).
    func freshness(of tile: TileID) -> TileFreshness? {
        guard let database = database(creating: false) else { return nil }
        // One statement, no transaction around it: the map asks for every tile in view at each move.
        let row = try? database.inDatabase { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT etag, last_modified, fresh_until FROM tile WHERE zoom = ? AND x = ? AND y = ?"),
                             arguments: [tile.zoom, tile.x, tile.y])
        }
        guard let row else { return nil }
        return TileFreshness(etag: row["etag"], lastModified: row["last_modified"],
                             freshUntil: Date(timeIntervalSince1970: row["fresh_until"]))
    }

    // MARK: - Writing

    /// Replaces the tile's record; nil removes it. False when it could not be written.
    @discardableResult
    func record(_ freshness: TileFreshness?, for tile: TileID) -> Bool {
        guard let database = database(creating: freshness != nil) else { return freshness == nil }
        do {
            try database.write { db in
                if let freshness {
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO tile (zoom, x, y, etag, last_modified, fresh_until) VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [tile.zoom, tile.x, tile.y, freshness.etag, freshness.lastModified,
                                         freshness.freshUntil.timeIntervalSince1970])
                } else {
                    try db.execute(sql: "DELETE FROM tile WHERE zoom = ? AND x = ? AND y = ?",
                                   arguments: [tile.zoom, tile.x, tile.y])
                }
            }
            return true
        } catch {
            return false
        }
    }

    // MARK: - Opening

    /// The open database; with `creating` false, nil until the file exists (reading an old cache makes no file).
    private func database(creating: Bool) -> DatabaseQueue? {
        lock.withLock {
            switch state {
            case .open(let database): return database
            case .unavailable: return nil
            case .notOpened:
                guard creating || FileManager.default.fileExists(atPath: url.path) else { return nil }
                if let database = openedOrStartedAgain() {
                    state = .open(database)
                    return database
                }
                state = .unavailable
                return nil
            }
        }
    }

    /// A damaged file is removed and made anew; one that cannot be opened otherwise (a folder that cannot be
    /// written) leaves the cache without records.
    private func openedOrStartedAgain() -> DatabaseQueue? {
        do {
            return try open()
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            return try? open()
        } catch {
            return nil
        }
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "tile-freshness"
        configuration.busyMode = .timeout(5) // On the Map's two maps keep the same folder
        configuration.journalMode = .wal // with synchronous=NORMAL, a tile's record costs no flush to the disk
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let database = try DatabaseQueue(path: url.path, configuration: configuration)
        try Self.migrator.migrate(database)
        return database
    }
}

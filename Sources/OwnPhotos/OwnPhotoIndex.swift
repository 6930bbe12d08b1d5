import Foundation
import GRDB

/// The index of the user's photo files: for each, its size and modification time (to know it unchanged) and what
/// reading it gave; positions for the album's "Your photos" and My Places' counts. A database of its own, only a
/// cache of what the files say: a damaged one is started again. Thread-safe.
public final class OwnPhotoIndex: Sendable {
    let writer: any DatabaseWriter

    /// Opens or creates the index at `url` (the lead's cacheFolder/own-photos.sqlite).
    public init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            writer = try Self.openPool(at: url)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            writer = try Self.openPool(at: url)
        }
    }

    /// An empty index in memory, for tests.
    public static func inMemory() throws -> OwnPhotoIndex {
        try OwnPhotoIndex(writer: DatabaseQueue(configuration: configuration))
    }

    private init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    private static func openPool(at url: URL) throws -> DatabasePool {
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        try migrator.migrate(pool)
        return pool
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: distanceFunction)
        }
        return configuration
    }

    /// own_photo_distance_km(lat1, lon1, lat2, lon2): the exact test after the bounding box has narrowed.
    private static let distanceFunction = DatabaseFunction("own_photo_distance_km", argumentCount: 4, pure: true) { values in
        guard let latitude1 = Double.fromDatabaseValue(values[0]), let longitude1 = Double.fromDatabaseValue(values[1]),
              let latitude2 = Double.fromDatabaseValue(values[2]), let longitude2 = Double.fromDatabaseValue(values[3]) else {
            return nil
        }
        return greatCircleKilometres(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
    }

    /// The schema, one migration per change, so the file of any earlier version is brought up to date.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-photo-file") { db in
            // Every photo file seen, the skipped ones too, so a broken file is not read again until it changes.
            try db.create(table: "photo_file", options: .withoutRowID) { t in
                t.primaryKey("path", .text)
                t.column("size", .integer).notNull()
                t.column("modified_ns", .integer).notNull()
                t.column("outcome", .text).notNull() // photo, noPosition, unreadable, tooLarge
                t.column("latitude", .double) // set for photos only
                t.column("longitude", .double)
                t.column("taken_at", .double) // the file's wall clock read as UTC, seconds since 1970
                t.column("orientation", .integer)
            }
            try db.create(index: "photo_file_position", on: "photo_file", columns: ["latitude", "longitude"])
        }
        migrator.registerMigration("v2-whole-pictures") { db in
            // Photos indexed before truncated pictures were told apart are read again at the next scan (shown until then).
            try db.execute(sql: "UPDATE photo_file SET modified_ns = -1 WHERE outcome = 'photo'")
        }
        return migrator
    }

    // MARK: - Reading

    /// Photos within `radiusKilometres` of the point (great-circle), newest first (unknown times last, then by path),
    /// at most `limit`; with `years`, only those the camera dated in them (an undated photo is in no year).
    public func photos(nearLatitude latitude: Double, longitude: Double, radiusKilometres: Double,
                       takenIn years: ClosedRange<Int>? = nil, limit: Int) async throws -> [OwnPhoto] {
        let box = GeoBox(latitude: latitude, longitude: longitude, radiusKilometres: radiusKilometres)
        let (west1, east1, west2, east2) = box.sqlLongitudeBounds
        let (from, until) = Self.timeBounds(years)
        return try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT path, latitude, longitude, taken_at, orientation FROM photo_file
                WHERE latitude BETWEEN ? AND ? AND (longitude BETWEEN ? AND ? OR longitude BETWEEN ? AND ?)
                  AND own_photo_distance_km(latitude, longitude, ?, ?) <= ?
                  AND (? IS NULL OR (taken_at >= ? AND taken_at < ?))
                ORDER BY taken_at IS NULL, taken_at DESC, path
                LIMIT ?
                """, arguments: [box.minLatitude, box.maxLatitude, west1, east1, west2, east2,
                                 latitude, longitude, radiusKilometres, from, from, until, max(0, limit)])
            .map { row in
                OwnPhoto(path: row["path"], latitude: row["latitude"], longitude: row["longitude"],
                         takenAt: (row["taken_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                         orientation: row["orientation"] ?? 1)
            }
        }
    }

    /// For My Places: how many photos lie within `radiusKilometres` of each place (0 included), one query per call
    /// (per 3,000 places: SQLite's limit on arguments).
    /// `excluding`: by place, photos not to count there (those its album no longer shows); `takenIn`: by place, the
    /// years its album shows (photos dated in them only).
    public func counts(near places: [(id: Int64, latitude: Double, longitude: Double)],
                       radiusKilometres: Double, excluding: [Int64: Set<String>] = [:],
                       takenIn years: [Int64: ClosedRange<Int>] = [:]) async throws -> [Int64: Int] {
        guard !places.isEmpty else { return [:] }
        let chunks = stride(from: 0, to: places.count, by: 3000).map { Array(places[$0..<min($0 + 3000, places.count)]) }
        return try await writer.read { db in
            var counts: [Int64: Int] = [:]
            for chunk in chunks {
                var arguments = StatementArguments()
                for place in chunk {
                    let box = GeoBox(latitude: place.latitude, longitude: place.longitude, radiusKilometres: radiusKilometres)
                    let (west1, east1, west2, east2) = box.sqlLongitudeBounds
                    let (from, until) = Self.timeBounds(years[place.id])
                    arguments += [place.id, place.latitude, place.longitude, box.minLatitude, box.maxLatitude,
                                  west1, east1, west2, east2, from, until]
                }
                arguments += [radiusKilometres]
                let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(db, sql: """
                    WITH place(id, latitude, longitude, south, north, west1, east1, west2, east2, taken_from, taken_until)
                      AS (VALUES \(values))
                    SELECT place.id AS id, COUNT(photo_file.path) AS count FROM place
                    LEFT JOIN photo_file ON photo_file.latitude BETWEEN place.south AND place.north
                      AND (photo_file.longitude BETWEEN place.west1 AND place.east1
                           OR photo_file.longitude BETWEEN place.west2 AND place.east2)
                      AND own_photo_distance_km(photo_file.latitude, photo_file.longitude, place.latitude, place.longitude) <= ?
                      AND (place.taken_from IS NULL
                           OR (photo_file.taken_at >= place.taken_from AND photo_file.taken_at < place.taken_until))
                    GROUP BY place.id
                    """, arguments: arguments)
                for row in rows {
                    counts[row["id"]] = row["count"]
                }
                // Few by nature (photos a user took out of an album): each is checked on its own.
                for place in chunk {
                    guard let left = excluding[place.id], !left.isEmpty, let count = counts[place.id], count > 0 else { continue }
                    let paths = Array(left)
                    let marks = Array(repeating: "?", count: paths.count).joined(separator: ", ")
                    let (from, until) = Self.timeBounds(years[place.id])
                    var arguments = StatementArguments(paths)
                    arguments += [place.latitude, place.longitude, radiusKilometres, from, from, until]
                    let near = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM photo_file WHERE path IN (\(marks)) AND latitude IS NOT NULL
                          AND own_photo_distance_km(latitude, longitude, ?, ?) <= ?
                          AND (? IS NULL OR (taken_at >= ? AND taken_at < ?))
                        """, arguments: arguments) ?? 0
                    counts[place.id] = max(0, count - near)
                }
            }
            return counts
        }
    }

    /// A photo the album could not decode is unreadable from now on (until its file changes): counted, never shown.
    public func markUnreadable(_ path: String) async throws {
        try await writer.write { db in
            try db.execute(sql: """
                UPDATE photo_file SET outcome = 'unreadable', latitude = NULL, longitude = NULL, taken_at = NULL, orientation = NULL
                WHERE path = ?
                """, arguments: [path])
        }
    }

    /// `years` as `taken_at` bounds (the camera's wall clock read as UTC): 1 January of the first, 1 January after the last.
    private static func timeBounds(_ years: ClosedRange<Int>?) -> (from: Double?, until: Double?) {
        guard let years else { return (nil, nil) }
        func start(of year: Int) -> Double? {
            ExifDate.utcCalendar.date(from: DateComponents(year: year, month: 1, day: 1))?.timeIntervalSince1970
        }
        return (start(of: years.lowerBound), start(of: years.upperBound + 1))
    }

    /// The index's totals (`read`, `unchanged` and `removed` are a scan's and are 0 here).
    public func report() async throws -> IndexReport {
        try await writer.read { db in try Self.totals(db) }
    }

    static func totals(_ db: Database) throws -> IndexReport {
        var report = IndexReport()
        for row in try Row.fetchAll(db, sql: "SELECT outcome, COUNT(*) AS count FROM photo_file GROUP BY outcome") {
            let count: Int = row["count"]
            switch FileRecord.Outcome(rawValue: row["outcome"]) {
            case .photo: report.photos = count
            case .noPosition: report.noPosition = count
            case .unreadable: report.unreadable = count
            case .tooLarge: report.tooLarge = count
            case nil: break
            }
        }
        return report
    }

    // MARK: - For the indexer (synchronous: it runs on its own thread)

    /// The recorded stamps of every file, or of those at `paths` and under `folders` (a refresh).
    func stamps(exactly paths: [String]? = nil, under folders: [String] = []) throws -> [String: FileStamp] {
        try writer.read { db in
            var stamps: [String: FileStamp] = [:]
            func add(_ rows: RowCursor) throws {
                while let row = try rows.next() {
                    stamps[row["path"]] = FileStamp(size: row["size"], modified: row["modified_ns"])
                }
            }
            guard let paths else {
                try add(Row.fetchCursor(db, sql: "SELECT path, size, modified_ns FROM photo_file"))
                return stamps
            }
            for path in paths {
                try add(Row.fetchCursor(db, sql: "SELECT path, size, modified_ns FROM photo_file WHERE path = ?", arguments: [path]))
            }
            for folder in folders {
                // "a/b/" up to "a/b0": every path below the folder, by the index on path ('0' follows '/').
                let prefix = folder.hasSuffix("/") ? folder : folder + "/"
                let end = String(prefix.dropLast()) + "0"
                try add(Row.fetchCursor(db, sql: "SELECT path, size, modified_ns FROM photo_file WHERE path >= ? AND path < ?",
                                        arguments: [prefix, end]))
            }
            return stamps
        }
    }

    /// Records and removals in one transaction, so readers see a batch whole.
    func write(_ records: [FileRecord], removing removedPaths: [String] = []) throws {
        guard !records.isEmpty || !removedPaths.isEmpty else { return }
        try writer.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO photo_file (path, size, modified_ns, outcome, latitude, longitude, taken_at, orientation)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for record in records {
                var photo: OwnPhoto?
                if case .photo(let found) = record.reading { photo = found }
                try insert.execute(arguments: [record.path, record.stamp.size, record.stamp.modified, record.outcome.rawValue,
                                               photo?.latitude, photo?.longitude, photo?.takenAt?.timeIntervalSince1970,
                                               photo?.orientation])
            }
            let delete = try db.cachedStatement(sql: "DELETE FROM photo_file WHERE path = ?")
            for path in removedPaths {
                try delete.execute(arguments: [path])
            }
        }
    }

    func totals() throws -> IndexReport {
        try writer.read { db in try Self.totals(db) }
    }
}

/// One file as the indexer found it.
struct FileRecord: Sendable {
    enum Outcome: String { case photo, noPosition, unreadable, tooLarge }

    var path: String
    var stamp: FileStamp
    var reading: PhotoMetadataReader.Outcome

    var outcome: Outcome {
        switch reading {
        case .photo: .photo
        case .noPosition: .noPosition
        case .unreadable: .unreadable
        case .tooLarge: .tooLarge
        }
    }
}

import Foundation
import GRDB

/// One row of "My Places": a pin with its name, how many photos its album has, and its first
/// downloaded photo (for a thumbnail).
public struct PlaceSummary: Equatable, Sendable, FetchableRecord, Decodable {
    public var id: Int64
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date
    public var placeName: String?
    public var photoCount: Int
    /// Relative to the data folder, like `Photo.filePath`.
    public var firstPhotoPath: String?

    enum CodingKeys: String, CodingKey {
        case id, latitude, longitude
        case createdAt = "created_at"
        case placeName = "place_name"
        case photoCount = "photo_count"
        case firstPhotoPath = "first_photo_path"
    }

    /// Dates are stored as seconds since the reference date (see `ExactDates`).
    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }
}

/// Which of the places a list shows, and in what order.
public struct PlaceListQuery: Equatable, Sendable {
    public enum Order: Sendable { case newestFirst, name }

    public var order: Order
    /// Words the place's name must contain (case-insensitive); empty shows every place.
    public var filter: String
    /// At most this many rows: a list on the screen stays the same size whatever the library's.
    public var limit: Int

    public init(order: Order = .newestFirst, filter: String = "", limit: Int = 200) {
        self.order = order
        self.filter = filter
        self.limit = limit
    }
}

/// A page of places and how many match in all.
public struct PlaceList: Equatable, Sendable {
    public var places: [PlaceSummary]
    public var matching: Int
    public var total: Int
}

extension AppDatabase {
    /// The places `query` asks for, read on a database thread; bounded by `query.limit`, so a big library
    /// costs the caller no more than a small one.
    public static func placeList(_ db: Database, _ query: PlaceListQuery) throws -> PlaceList {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        for word in query.filter.split(whereSeparator: \.isWhitespace) {
            conditions.append("pin.place_name LIKE ? ESCAPE '\\'")
            let escaped = word.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
            arguments.append("%\(escaped)%")
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = switch query.order {
        case .newestFirst: "pin.id DESC"
        case .name: "pin.place_name IS NULL, pin.place_name COLLATE NOCASE, pin.id DESC"
        }
        let places = try PlaceSummary.fetchAll(db, sql: """
            SELECT pin.id, pin.latitude, pin.longitude, pin.created_at, pin.place_name,
                   (SELECT count(*) FROM photo WHERE photo.pin_id = pin.id) AS photo_count,
                   (SELECT file_path FROM photo WHERE photo.pin_id = pin.id AND file_path IS NOT NULL
                    ORDER BY position, id LIMIT 1) AS first_photo_path
            FROM pin \(whereClause)
            ORDER BY \(order)
            LIMIT ?
            """, arguments: StatementArguments(arguments + [query.limit]))
        let matching = conditions.isEmpty
            ? try Int.fetchOne(db, sql: "SELECT count(*) FROM pin") ?? 0
            : try Int.fetchOne(db, sql: "SELECT count(*) FROM pin \(whereClause)", arguments: StatementArguments(arguments)) ?? 0
        let total = conditions.isEmpty ? matching : try Int.fetchOne(db, sql: "SELECT count(*) FROM pin") ?? 0
        return PlaceList(places: places, matching: matching, total: total)
    }

    /// Delivers `placeList(query)` on the main actor now and whenever it changes; read off the main thread.
    @MainActor
    public func observePlaces(_ query: PlaceListQuery, onError: @escaping @MainActor (Error) -> Void,
                              onChange: @escaping @MainActor (PlaceList) -> Void) -> StoreObservation {
        let observation = ValueObservation.tracking { db in try Self.placeList(db, query) }.removeDuplicates()
        return StoreObservation(observation.start(in: reader, onError: onError, onChange: onChange))
    }
}

import Foundation
import GRDB

/// A place read from a file, to become a pin.
public struct ImportedPlace: Equatable, Sendable {
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// When the file says it was saved; the import's time when it does not.
    public var createdAt: Date?

    public init(name: String?, latitude: Double, longitude: Double, createdAt: Date?) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
    }
}

/// What an import did.
public struct PlaceImportResult: Equatable, Sendable {
    /// The new pins' ids, in the file's order.
    public var added: [Int64]
    /// Places passed over because a pin was already there.
    public var duplicates: Int
}

extension AppDatabase {
    /// The places of `places` that are not already pins: a place within `duplicateRadiusMetres` of a pin that
    /// existed before the import is the same place. Nothing is written.
    public func newPlaces(among places: [ImportedPlace], duplicateRadiusMetres: Double) throws -> (new: [ImportedPlace], duplicates: Int) {
        try read { db in try Self.newPlaces(among: places, existing: Self.pinPositions(db), radiusMetres: duplicateRadiusMetres) }
    }

    /// Adds the places that are not already pins as pins, all in one transaction: an import lands whole or not at all.
    /// A name from the file is kept as final (the namer does not replace it); a place without one is named as a dropped pin is.
    public func importPlaces(_ places: [ImportedPlace], duplicateRadiusMetres: Double, now: Date = Date()) throws -> PlaceImportResult {
        try write { db in
            let (new, duplicates) = Self.newPlaces(among: places, existing: try Self.pinPositions(db), radiusMetres: duplicateRadiusMetres)
            var added: [Int64] = []
            added.reserveCapacity(new.count)
            for place in new {
                let name = place.name?.trimmingCharacters(in: .whitespacesAndNewlines)
                let named = name.flatMap { $0.isEmpty ? nil : $0 }
                var pin = Pin(latitude: place.latitude, longitude: place.longitude, createdAt: place.createdAt ?? now,
                              placeName: named, placeNameSource: named == nil ? nil : .online)
                try pin.insert(db)
                if let id = pin.id { added.append(id) }
            }
            return PlaceImportResult(added: added, duplicates: duplicates)
        }
    }

    /// Every place with its photo count, oldest first: what an export writes.
    public func exportablePlaces() throws -> [PlaceSummary] {
        try read { db in
            try PlaceSummary.fetchAll(db, sql: """
                SELECT pin.id, pin.latitude, pin.longitude, pin.created_at, pin.place_name,
                       (SELECT count(*) FROM photo WHERE photo.pin_id = pin.id) AS photo_count,
                       NULL AS first_photo_path
                FROM pin ORDER BY pin.id
                """)
        }
    }

    private static func pinPositions(_ db: Database) throws -> [(latitude: Double, longitude: Double)] {
        try Row.fetchAll(db, sql: "SELECT latitude, longitude FROM pin").map { ($0[0], $0[1]) }
    }

    // A grid of cells a radius wide: each place is compared with the pins of its cell and the eight around it.
    static func newPlaces(among places: [ImportedPlace], existing: [(latitude: Double, longitude: Double)],
                          radiusMetres: Double) -> (new: [ImportedPlace], duplicates: Int) {
        guard !existing.isEmpty, radiusMetres > 0 else { return (places, 0) }
        let cellDegrees = max(radiusMetres / 111_000, 1e-6)
        struct Cell: Hashable { var row: Int; var column: Int }
        func cell(_ latitude: Double, _ longitude: Double) -> Cell {
            Cell(row: Int((latitude / cellDegrees).rounded(.down)), column: Int((longitude / cellDegrees).rounded(.down)))
        }
        var grid: [Cell: [(latitude: Double, longitude: Double)]] = [:]
        for pin in existing { grid[cell(pin.latitude, pin.longitude), default: []].append(pin) }
        let columns = Int((360 / cellDegrees).rounded(.up))
        var new: [ImportedPlace] = []
        var duplicates = 0
        for place in places {
            let home = cell(place.latitude, place.longitude)
            // Near the poles a degree of longitude is short: widen the search to cover the radius there.
            let latitudeRadians = min(abs(place.latitude) + cellDegrees, 89.9) * .pi / 180
            let reach = min(Int((1 / cos(latitudeRadians)).rounded(.up)), columns / 2 + 1)
            var isDuplicate = false
            search: for row in (home.row - 1)...(home.row + 1) {
                for offset in -reach...reach {
                    // Columns wrap at the antimeridian.
                    var column = home.column + offset
                    let half = columns / 2
                    if column < -half { column += columns } else if column >= half { column -= columns }
                    for pin in grid[Cell(row: row, column: column)] ?? []
                    where AlbumPlace.distanceMetres(pin, (place.latitude, place.longitude)) <= radiusMetres {
                        isDuplicate = true
                        break search
                    }
                }
            }
            if isDuplicate { duplicates += 1 } else { new.append(place) }
        }
        return (new, duplicates)
    }
}

extension AppDatabase {
    /// Deletes the pins with their photos in one transaction (an import undone); ids already gone are passed over.
    public func deletePins(ids: [Int64]) throws {
        try write { db in _ = try Pin.deleteAll(db, keys: ids) }
    }
}

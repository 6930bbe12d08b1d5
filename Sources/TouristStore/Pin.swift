import Foundation
import GRDB

/// A place the user dropped on the map; owns an album of photos.
public struct Pin: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable, Sendable {
    /// Nil until the pin is inserted.
    public var id: Int64?
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date
    /// What people call the place ("Montmartre, Paris, France"); nil until it has been named.
    public var placeName: String?
    /// Where `placeName` came from; nil with it.
    public var placeNameSource: PlaceNameSource?

    public init(id: Int64? = nil, latitude: Double, longitude: Double, createdAt: Date = Date(),
                placeName: String? = nil, placeNameSource: PlaceNameSource? = nil) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.placeName = placeName
        self.placeNameSource = placeNameSource
    }

    enum CodingKeys: String, CodingKey {
        case id
        case latitude
        case longitude
        case createdAt = "created_at"
        case placeName = "place_name"
        case placeNameSource = "place_name_source"
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let latitude = Column(CodingKeys.latitude)
        public static let longitude = Column(CodingKeys.longitude)
        public static let createdAt = Column(CodingKeys.createdAt)
        public static let placeName = Column(CodingKeys.placeName)
        public static let placeNameSource = Column(CodingKeys.placeNameSource)
    }

    public static let databaseTableName = "pin"

    /// The pin's album.
    public static let photos = hasMany(Photo.self)

    /// The pin's photos, in album order.
    public var photos: QueryInterfaceRequest<Photo> {
        request(for: Pin.photos).order(Photo.Columns.position, Photo.Columns.id)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Who named a pin.
public enum PlaceNameSource: String, Codable, Sendable {
    /// The nearest city, from the cities database on this computer: given at once, replaced when online.
    case offline
    /// An online geocoder (Nominatim), asked once per place, or a name kept from a file the user imported: final.
    case online
}

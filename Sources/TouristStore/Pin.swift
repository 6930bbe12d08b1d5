import Foundation
import GRDB

/// A place the user dropped on the map; owns an album of photos.
public struct Pin: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable, Sendable {
    /// Nil until the pin is inserted.
    public var id: Int64?
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date

    public init(id: Int64? = nil, latitude: Double, longitude: Double, createdAt: Date = Date()) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case latitude
        case longitude
        case createdAt = "created_at"
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let latitude = Column(CodingKeys.latitude)
        public static let longitude = Column(CodingKeys.longitude)
        public static let createdAt = Column(CodingKeys.createdAt)
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

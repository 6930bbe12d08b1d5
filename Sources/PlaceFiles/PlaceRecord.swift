import Foundation

/// A place as a file holds it: what Virtual Tourist writes for a pin and reads back as one.
public struct PlaceRecord: Equatable, Sendable {
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// When the place was saved (a pin's creation, Takeout's date, KML's TimeStamp, GPX's time).
    public var createdAt: Date?
    /// How many photos its album has; written on export, informational on import.
    public var photoCount: Int?

    public init(name: String?, latitude: Double, longitude: Double, createdAt: Date? = nil, photoCount: Int? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.photoCount = photoCount
    }
}

import GRDB

/// The part of the world the map showed last, restored at start-up.
///
/// Stored as the single row of table `viewport` (`id = 1`, enforced by a CHECK constraint).
public struct Viewport: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var zoom: Int

    public init(latitude: Double, longitude: Double, zoom: Int) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
    }

    /// What the map shows on first start: the whole world.
    public static let world = Viewport(latitude: 20, longitude: 0, zoom: 2)

    public static let databaseTableName = "viewport"

    // The only row the table may hold.
    static let rowID: Int64 = 1

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = Self.rowID
        container["latitude"] = latitude
        container["longitude"] = longitude
        container["zoom"] = zoom
    }
}

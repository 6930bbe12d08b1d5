import GRDB

/// The main window's size, restored at start-up.
///
/// Stored as the single row of table `window_state` (`id = 1`, enforced by a CHECK constraint).
public struct WindowState: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var isMaximized: Bool

    public init(width: Int, height: Int, isMaximized: Bool) {
        self.width = width
        self.height = height
        self.isMaximized = isMaximized
    }

    enum CodingKeys: String, CodingKey {
        case width
        case height
        case isMaximized = "is_maximized"
    }

    public static let databaseTableName = "window_state"

    // The only row the table may hold.
    static let rowID: Int64 = 1

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = Self.rowID
        container[CodingKeys.width.rawValue] = width
        container[CodingKeys.height.rawValue] = height
        container[CodingKeys.isMaximized.rawValue] = isMaximized
    }
}

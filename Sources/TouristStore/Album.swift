import Foundation
import GRDB

/// What a pin's album was fetched from: which page of the location's photos it shows, and how
/// many there are, so "New Collection" can ask for another page and "No Images" needs no request.
public struct Album: Codable, FetchableRecord, PersistableRecord, Equatable, Sendable {
    public var pinId: Int64
    /// The page of search results the album shows (1-based).
    public var page: Int
    /// How many pages of `perPage` photos the location has.
    public var pages: Int
    /// How many photos the location has in all.
    public var total: Int
    /// The page size the album was fetched with.
    public var perPage: Int
    public var fetchedAt: Date

    public init(pinId: Int64, page: Int, pages: Int, total: Int, perPage: Int, fetchedAt: Date = Date()) {
        self.pinId = pinId
        self.page = page
        self.pages = pages
        self.total = total
        self.perPage = perPage
        self.fetchedAt = fetchedAt
    }

    /// The location has no photos at all.
    public var isEmpty: Bool { total == 0 }

    enum CodingKeys: String, CodingKey {
        case pinId = "pin_id"
        case page, pages, total
        case perPage = "per_page"
        case fetchedAt = "fetched_at"
    }

    public enum Columns {
        public static let pinId = Column(CodingKeys.pinId)
    }

    public static let databaseTableName = "album"

}

/// A pin's album as the album page shows it.
public struct AlbumContents: Equatable, Sendable {
    public var album: Album?
    public var photos: [Photo]

    public init(album: Album?, photos: [Photo]) {
        self.album = album
        self.photos = photos
    }
}

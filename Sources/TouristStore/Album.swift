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
    /// The first and last year the album's photos were taken in; both nil for any time.
    public var takenFromYear: Int?
    public var takenToYear: Int?

    public init(pinId: Int64, page: Int, pages: Int, total: Int, perPage: Int, fetchedAt: Date = Date(),
                takenYears: ClosedRange<Int>? = nil) {
        self.pinId = pinId
        self.page = page
        self.pages = pages
        self.total = total
        self.perPage = perPage
        self.fetchedAt = fetchedAt
        self.takenYears = takenYears
    }

    /// The years the album's photos were taken in (its time, "2010s"), or nil for any time.
    public var takenYears: ClosedRange<Int>? {
        get {
            guard let takenFromYear, let takenToYear, takenFromYear <= takenToYear else { return nil }
            return takenFromYear...takenToYear
        }
        set {
            takenFromYear = newValue?.lowerBound
            takenToYear = newValue?.upperBound
        }
    }

    /// The location has no photos at all.
    public var isEmpty: Bool { total == 0 }

    enum CodingKeys: String, CodingKey {
        case pinId = "pin_id"
        case page, pages, total
        case perPage = "per_page"
        case fetchedAt = "fetched_at"
        case takenFromYear = "taken_from_year"
        case takenToYear = "taken_to_year"
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

import Foundation

/// One `flickr.photos.search` by location. `nil` fields take the client's configuration.
public struct FlickrSearchQuery: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    /// 1-based.
    public var page: Int
    /// `per_page`; `nil` means the configuration's album size.
    public var perPage: Int?
    /// `nil` means the configuration's radius.
    public var radiusKilometers: Double?
    /// Only photos taken in these years (`min_taken_date`/`max_taken_date`); `nil` means any time.
    public var takenYears: ClosedRange<Int>?

    public init(latitude: Double, longitude: Double, page: Int = 1, perPage: Int? = nil,
                radiusKilometers: Double? = nil, takenYears: ClosedRange<Int>? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.page = page
        self.perPage = perPage
        self.radiusKilometers = radiusKilometers
        self.takenYears = takenYears
    }
}

/// One page of search results.
public struct FlickrSearchPage: Sendable, Hashable {
    /// Photos matching the search, as Flickr counts them (not all are reachable: see `lastReachablePage`).
    public var total: Int
    /// Pages of `perPage` photos; 0 when nothing matched.
    public var pages: Int
    public var page: Int
    public var perPage: Int
    /// Usable photos of this page, in Flickr's order; entries without a usable image URL are left out.
    public var photos: [FlickrPhoto]
    /// Entries of this page that were left out (no usable URL, or malformed).
    public var skippedCount: Int

    public init(total: Int, pages: Int, page: Int, perPage: Int, photos: [FlickrPhoto], skippedCount: Int = 0) {
        self.total = total
        self.pages = pages
        self.page = page
        self.perPage = perPage
        self.photos = photos
        self.skippedCount = skippedCount
    }

    /// The last page New Collection may ask for (Flickr serves only the first 4,000 results).
    public var lastReachablePage: Int { AlbumPaging.lastReachablePage(pages: pages, perPage: perPage) }
}

/// A photo found by a search.
public struct FlickrPhoto: Sendable, Hashable, Identifiable {
    public var id: String
    /// The owner's NSID, e.g. `12345678@N00`.
    public var owner: String
    /// The owner's display name (`extras=owner_name`), if Flickr sent one.
    public var ownerName: String?
    public var title: String
    public var secret: String?
    public var server: String?
    public var farm: Int?
    /// Flickr's license id (`extras=license`), e.g. "4" for CC BY 2.0.
    public var license: String?
    /// The best image to show: `url_n` (320 px) if present, else `url_q` (150 px square).
    public var imageURL: URL
    /// Size of `imageURL`, when Flickr sent it.
    public var width: Int?
    public var height: Int?
    /// The biggest size worth showing in the photo viewer: `url_b` (1024 px) if Flickr has it,
    /// else `url_z` (640 px); nil when it has neither (the photo is small).
    public var largeImageURL: URL?

    public init(id: String, owner: String, ownerName: String? = nil, title: String = "", secret: String? = nil,
                server: String? = nil, farm: Int? = nil, license: String? = nil, imageURL: URL,
                width: Int? = nil, height: Int? = nil, largeImageURL: URL? = nil) {
        self.id = id
        self.owner = owner
        self.ownerName = ownerName
        self.title = title
        self.secret = secret
        self.server = server
        self.farm = farm
        self.license = license
        self.imageURL = imageURL
        self.width = width
        self.height = height
        self.largeImageURL = largeImageURL
    }

    /// The photo's page on Flickr, which its terms require each photo to link to.
    public var pageURL: URL {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        let owner = self.owner.addingPercentEncoding(withAllowedCharacters: allowed) ?? self.owner
        let id = self.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? self.id
        return URL(string: "https://www.flickr.com/photos/\(owner)/\(id)")!
    }
}

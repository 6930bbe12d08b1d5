/// Searching Flickr for photos near a place. `FlickrAPIClient` is the live implementation; tests and
/// previews can supply their own.
public protocol FlickrSearching: Sendable {
    /// One page of photos around `query`'s coordinates. Every failure is a `FlickrError`
    /// (`.cancelled` when the calling task is cancelled).
    func searchPhotos(_ query: FlickrSearchQuery) async throws(FlickrError) -> FlickrSearchPage
}

extension FlickrSearching {
    /// Page `page` around a coordinate, with the configured radius and album size.
    public func searchPhotos(latitude: Double, longitude: Double, page: Int = 1) async throws(FlickrError) -> FlickrSearchPage {
        try await searchPhotos(FlickrSearchQuery(latitude: latitude, longitude: longitude, page: page))
    }
}

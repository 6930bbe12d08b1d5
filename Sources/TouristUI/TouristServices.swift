import FlickrClient
import Foundation
import MapView
import Places

/// The network clients the app talks through, built by main.swift from the configuration: the UI never
/// makes one itself.
public struct TouristServices: Sendable {
    /// Flickr's photo search.
    public var flickr: any FlickrSearching
    /// A photo downloader into `stagingFolder`, each file checked by `validator` (the grid's and the viewer's
    /// differ, and need the open library).
    public var makeDownloader: @Sendable (_ stagingFolder: URL, _ validator: @escaping ImageValidator) -> any PhotoDownloading
    /// Pins' names and the place search online; one for both, so one User-Agent and one request a second.
    public var geocoder: NominatimGeocoder
    /// Starts the map's tile fetching.
    public var tiles: TileFetcherFactory

    public init(flickr: any FlickrSearching,
                makeDownloader: @escaping @Sendable (URL, @escaping ImageValidator) -> any PhotoDownloading,
                geocoder: NominatimGeocoder, tiles: @escaping TileFetcherFactory) {
        self.flickr = flickr
        self.makeDownloader = makeDownloader
        self.geocoder = geocoder
        self.tiles = tiles
    }
}

import Foundation
import MapView
import Places
import StudentLocations

/// The network clients the app talks through, built by main.swift from the configuration: the UI never
/// makes one itself.
public struct OnTheMapServices {
    /// The API client for the server the user logs in to.
    public var makeClient: (URL) -> any StudentLocationsAPI
    /// Addresses for Add Location, online.
    public var geocoder: NominatimGeocoder
    /// Starts each map's tile fetching.
    public var tiles: TileFetcherFactory
    /// Where "Stay logged in" keeps the session: the user's keyring in the app; without one, nothing is offered.
    public var sessionKeeper: any SessionKeeper

    public init(makeClient: @escaping (URL) -> any StudentLocationsAPI, geocoder: NominatimGeocoder,
                tiles: @escaping TileFetcherFactory,
                sessionKeeper: any SessionKeeper = InMemorySessionKeeper(available: false)) {
        self.makeClient = makeClient
        self.geocoder = geocoder
        self.tiles = tiles
        self.sessionKeeper = sessionKeeper
    }
}

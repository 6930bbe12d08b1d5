import Foundation

/// Where an album belongs. Flickr is asked for photos within 5 km of a pin, so a pin nudged a few
/// hundred metres keeps the same album; only a meaningful move makes it search again. The album
/// service, the store's checks and pin moves all use this one rule.
public enum AlbumPlace {
    /// A pin moved less than this keeps its album (5 % of the 5 km search radius).
    public static let toleranceMetres: Double = 250

    /// Great-circle distance in metres (haversine, mean Earth radius).
    public static func distanceMetres(_ a: (latitude: Double, longitude: Double),
                                      _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians
        let dLongitude = (b.longitude - a.longitude) * radians
        let h = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
    }

    /// Whether an album searched at `a` still belongs to a pin at `b`.
    public static func isSame(_ a: (latitude: Double, longitude: Double),
                              _ b: (latitude: Double, longitude: Double)) -> Bool {
        distanceMetres(a, b) < toleranceMetres
    }
}

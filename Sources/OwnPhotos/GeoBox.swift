import Foundation

/// The latitude/longitude box around a point that holds every point within a great-circle radius, so the
/// index can narrow by its (latitude, longitude) index before measuring exactly.
struct GeoBox: Equatable {
    var minLatitude: Double
    var maxLatitude: Double
    /// One or two longitude ranges: two when the box crosses the 180° meridian.
    var longitudeRanges: [ClosedRange<Double>]

    static let earthRadiusKilometres = 6371.0088

    init(latitude: Double, longitude: Double, radiusKilometres: Double) {
        let radius = max(0, radiusKilometres)
        let latitudeSpan = radius / Self.earthRadiusKilometres * 180 / .pi
        minLatitude = max(-90, latitude - latitudeSpan)
        maxLatitude = min(90, latitude + latitudeSpan)
        // Near a pole, or for a radius of half the world, every longitude is within reach.
        guard maxLatitude < 90, minLatitude > -90 else {
            longitudeRanges = [-180...180]
            return
        }
        let sine = sin(radius / Self.earthRadiusKilometres) / cos(latitude * .pi / 180)
        guard sine < 1 else {
            longitudeRanges = [-180...180]
            return
        }
        let longitudeSpan = asin(sine) * 180 / .pi
        let west = longitude - longitudeSpan
        let east = longitude + longitudeSpan
        if west < -180 {
            longitudeRanges = [(west + 360)...180, -180...east]
        } else if east > 180 {
            longitudeRanges = [west...180, -180...(east - 360)]
        } else {
            longitudeRanges = [west...east]
        }
    }

    /// Two ranges always, the second empty (1...0 never matches a BETWEEN) when one suffices: one SQL shape for all.
    var sqlLongitudeBounds: (Double, Double, Double, Double) {
        let first = longitudeRanges[0]
        let second = longitudeRanges.count > 1 ? (longitudeRanges[1].lowerBound, longitudeRanges[1].upperBound) : (1.0, 0.0)
        return (first.lowerBound, first.upperBound, second.0, second.1)
    }
}

/// Great-circle distance in kilometres (haversine), the same formula the SQL function uses.
func greatCircleKilometres(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
    let phi1 = latitude1 * .pi / 180
    let phi2 = latitude2 * .pi / 180
    let deltaPhi = phi2 - phi1
    let deltaLambda = (longitude2 - longitude1) * .pi / 180
    let a = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
    return 2 * GeoBox.earthRadiusKilometres * asin(min(1, sqrt(a)))
}

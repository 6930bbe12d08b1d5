import Foundation

/// Coordinates as people read them: "48.8584° N, 2.2945° E".
enum CoordinateFormat {
    static func string(latitude: Double, longitude: Double) -> String {
        "\(component(latitude, positive: "N", negative: "S")), \(component(longitude, positive: "E", negative: "W"))"
    }

    private static func component(_ value: Double, positive: String, negative: String) -> String {
        let rounded = (abs(value) * 10_000).rounded() / 10_000
        let hemisphere = rounded == 0 ? "" : (value >= 0 ? " \(positive)" : " \(negative)")
        return String(format: "%.4f°", rounded) + hemisphere
    }
}

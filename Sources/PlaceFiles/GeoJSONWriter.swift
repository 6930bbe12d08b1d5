import Foundation

/// GeoJSON (RFC 7946): a FeatureCollection of Points with name, created and photo_count properties.
enum GeoJSONWriter {
    static func document(_ places: [PlaceRecord]) -> Data {
        let times = TimestampText()
        let features = places.map { place in
            var properties: [String] = []
            if let name = place.name { properties.append("\"name\":\(jsonString(name))") }
            if let date = place.createdAt { properties.append("\"created\":\(jsonString(times.text(from: date)))") }
            if let count = place.photoCount { properties.append("\"photo_count\":\(count)") }
            // Swift's shortest round-trip text is also valid JSON for every finite Double.
            return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(place.longitude),\(place.latitude)]},"
                + "\"properties\":{\(properties.joined(separator: ","))}}"
        }
        return Data(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n").utf8)
    }

    /// A JSON string literal, escaped by Foundation's encoder.
    private static func jsonString(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding a String cannot fail; the fallback is never taken.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}

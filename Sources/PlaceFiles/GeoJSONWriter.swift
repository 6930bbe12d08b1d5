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

    private static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 {
                    escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }
}

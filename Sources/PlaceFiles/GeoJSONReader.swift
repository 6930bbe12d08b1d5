import Foundation
import Translations

/// Places in GeoJSON (RFC 7946): Point features of a FeatureCollection or a lone Feature, Google Takeout's
/// "Saved Places.json" in its current and older shapes among them.
enum GeoJSONReader {
    static func read(_ data: Data) throws(PlaceFileError) -> PlaceFileContents {
        let sink = FeatureSink()
        let decoder = JSONDecoder()
        decoder.userInfo[FeatureSink.key] = sink
        do {
            _ = try decoder.decode(Document.self, from: data)
        } catch let error as PlaceFileError {
            throw error
        } catch {
            throw .malformed(tr("the file is not valid JSON, or its JSON is not GeoJSON"))
        }
        return try sink.collector.contents(format: .geoJSON)
    }

    /// Takes each feature as the decoder reaches it, so a huge collection is never held whole and stops at the limit.
    // Unchecked: one decode on one thread owns it.
    private final class FeatureSink: @unchecked Sendable {
        static let key = CodingUserInfoKey(rawValue: "PlaceFiles.FeatureSink")!
        var collector = PlaceCollector()
        let times = TimestampText()

        func take(_ feature: JSONValue) throws(PlaceFileError) {
            guard feature.isObject else { throw .malformed(tr("a feature is not a JSON object")) }
            try GeoJSONReader.read(feature: feature, into: &collector, times: times)
        }
    }

    private struct Document: Decodable {
        private enum Key: String, CodingKey { case type, features }

        init(from decoder: Decoder) throws {
            guard let sink = decoder.userInfo[FeatureSink.key] as? FeatureSink else { return }
            let container = try decoder.container(keyedBy: Key.self)
            switch try container.decodeIfPresent(String.self, forKey: .type) {
            case "FeatureCollection":
                guard container.contains(.features) else {
                    throw PlaceFileError.malformed(tr("a FeatureCollection without features"))
                }
                var features = try container.nestedUnkeyedContainer(forKey: .features)
                while !features.isAtEnd {
                    try sink.take(features.decode(JSONValue.self))
                }
            case "Feature":
                try sink.take(JSONValue(from: decoder))
            default:
                throw PlaceFileError.malformed(tr("the JSON is neither a GeoJSON FeatureCollection nor a Feature"))
            }
        }
    }

    private static func read(feature: JSONValue, into collector: inout PlaceCollector,
                             times: TimestampText) throws(PlaceFileError) {
        let properties = feature["properties"] ?? .null
        // Takeout's older shape keeps the place under "Location", with text coordinates.
        let takeoutLocation = properties["location"] ?? properties["Location"]
        let isTakeout = takeoutLocation != nil || properties["google_maps_url"] != nil || properties["Google Maps URL"] != nil
        var coordinates: (longitude: Double, latitude: Double)?
        if let geometry = feature["geometry"], geometry.isObject {
            guard geometry["type"]?.string == "Point" else {
                collector.passedOver += 1
                return
            }
            guard let position = geometry["coordinates"]?.array, position.count >= 2,
                  let longitude = number(position[0]), let latitude = number(position[1]) else {
                throw .malformed(tr("a Point without [longitude, latitude] coordinates"))
            }
            coordinates = (longitude, latitude)
        } else if let geo = takeoutLocation?["Geo Coordinates"],
                  let latitude = number(geo["Latitude"]), let longitude = number(geo["Longitude"]) {
            coordinates = (longitude, latitude)
        }
        // Takeout writes [0, 0] for a place it has no coordinates for.
        guard let coordinates, !(isTakeout && coordinates.longitude == 0 && coordinates.latitude == 0) else {
            collector.passedOver += 1
            return
        }
        let name = [properties["name"], properties["title"], properties["Title"], takeoutLocation?["name"],
                    takeoutLocation?["Business Name"]]
            .lazy.compactMap { $0??.string?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
        let date = [properties["date"], properties["created"], properties["Published"]]
            .lazy.compactMap { $0?.string.flatMap(times.date(from:)) }.first
        let photoCount = properties["photo_count"]?.number.flatMap { Int(exactly: $0) }
        try collector.add(PlaceRecord(name: name, latitude: coordinates.latitude, longitude: coordinates.longitude,
                                      createdAt: date, photoCount: photoCount))
    }

    /// A JSON number, or Takeout's older text ("48.85").
    private static func number(_ value: JSONValue?) -> Double? {
        if let text = value?.string { return Double(text.trimmingCharacters(in: .whitespaces)) }
        return value?.number
    }
}

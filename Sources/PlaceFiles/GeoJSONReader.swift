import Foundation
import Translations

/// Places in GeoJSON (RFC 7946): Point features of a FeatureCollection or a lone Feature, Google Takeout's
/// "Saved Places.json" in its current and older shapes among them.
enum GeoJSONReader {
    static func read(_ data: Data) throws(PlaceFileError) -> PlaceFileContents {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .malformed(String(format: tr("not valid JSON: %@"), locale: Translations.formattingLocale,
                                    (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"))
        }
        guard let object = json as? [String: Any] else {
            throw .malformed(tr("the JSON is not a GeoJSON object"))
        }
        let times = TimestampText()
        var collector = PlaceCollector()
        switch object["type"] as? String {
        case "FeatureCollection":
            guard let features = object["features"] as? [Any] else {
                throw .malformed(tr("a FeatureCollection without features"))
            }
            for feature in features {
                guard let feature = feature as? [String: Any] else {
                    throw .malformed(tr("a feature is not a JSON object"))
                }
                try read(feature: feature, into: &collector, times: times)
            }
        case "Feature":
            try read(feature: object, into: &collector, times: times)
        default:
            throw .malformed(tr("the JSON is neither a GeoJSON FeatureCollection nor a Feature"))
        }
        return try collector.contents(format: .geoJSON)
    }

    private static func read(feature: [String: Any], into collector: inout PlaceCollector,
                             times: TimestampText) throws(PlaceFileError) {
        let properties = feature["properties"] as? [String: Any] ?? [:]
        // Takeout's older shape keeps the place under "Location", with text coordinates.
        let takeoutLocation = properties["location"] as? [String: Any] ?? properties["Location"] as? [String: Any]
        let isTakeout = takeoutLocation != nil || properties["google_maps_url"] != nil || properties["Google Maps URL"] != nil
        var coordinates: (longitude: Double, latitude: Double)?
        if let geometry = feature["geometry"] as? [String: Any] {
            guard geometry["type"] as? String == "Point" else {
                collector.passedOver += 1
                return
            }
            guard let position = geometry["coordinates"] as? [Any], position.count >= 2,
                  let longitude = number(position[0]), let latitude = number(position[1]) else {
                throw .malformed(tr("a Point without [longitude, latitude] coordinates"))
            }
            coordinates = (longitude, latitude)
        } else if let geo = takeoutLocation?["Geo Coordinates"] as? [String: Any],
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
            .lazy.compactMap { ($0 as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
        let date = [properties["date"], properties["created"], properties["Published"]]
            .lazy.compactMap { ($0 as? String).flatMap(times.date(from:)) }.first
        let photoCount = (properties["photo_count"] as? NSNumber)?.intValue
        try collector.add(PlaceRecord(name: name, latitude: coordinates.latitude, longitude: coordinates.longitude,
                                      createdAt: date, photoCount: photoCount))
    }

    /// A JSON number, or Takeout's older text ("48.85").
    private static func number(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text.trimmingCharacters(in: .whitespaces)) }
        if value is Bool { return nil }
        return (value as? NSNumber)?.doubleValue
    }
}

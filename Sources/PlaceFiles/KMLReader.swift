import Foundation
import Translations

/// Places in a KML 2.x file: every Placemark with a Point, at any depth of Documents and Folders.
/// Placemarks with lines, polygons or no geometry are passed over; gx:, mwm: and other extensions ignored.
final class KMLReader: XMLPlaceParser {
    private let times = TimestampText()
    private var placemark: PlaceRecord?
    private var hasPoint = false
    private var hasOtherGeometry = false
    private var dataName: String?

    static func read(_ data: Data, format: PlaceFileFormat = .kml) throws(PlaceFileError) -> PlaceFileContents {
        let reader = KMLReader()
        try reader.parse(data)
        return try reader.collector.contents(format: format)
    }

    override func isOwnNamespace(_ namespace: String?) -> Bool {
        guard let namespace, !namespace.isEmpty else { return true }
        return namespace.hasPrefix("http://www.opengis.net/kml/") || namespace.hasPrefix("http://earth.google.com/kml/")
    }

    override func didStart(_ name: String, attributes: [String: String]) throws(PlaceFileError) {
        switch name {
        case "Placemark":
            placemark = PlaceRecord(name: nil, latitude: .nan, longitude: .nan)
            hasPoint = false
            hasOtherGeometry = false
        case "Data" where placemark != nil:
            dataName = attributes["name"]
        case "LineString", "LinearRing", "Polygon", "MultiGeometry", "Model", "Track", "MultiTrack":
            hasOtherGeometry = true
        default:
            break
        }
    }

    override func didEnd(_ name: String, text: String) throws(PlaceFileError) {
        guard placemark != nil else { return }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "name" where isOpen("Placemark", at: 1):
            placemark?.name = trimmed.isEmpty ? nil : trimmed
        case "when" where isOpen("TimeStamp", at: 1):
            placemark?.createdAt = times.date(from: trimmed)
        case "value" where isOpen("Data", at: 1) && dataName == "photoCount":
            placemark?.photoCount = Int(trimmed)
        case "coordinates" where isOpen("Point", at: 1) && isOpen("Placemark", at: 2):
            let (longitude, latitude) = try Self.coordinates(trimmed)
            placemark?.longitude = longitude
            placemark?.latitude = latitude
            hasPoint = true
        case "Placemark":
            guard let place = placemark else { return }
            placemark = nil
            if hasPoint && !hasOtherGeometry {
                try collector.add(place)
            } else {
                collector.passedOver += 1
            }
        default:
            break
        }
    }

    /// "lon,lat[,alt]", with whitespace allowed around the commas.
    private static func coordinates(_ text: String) throws(PlaceFileError) -> (Double, Double) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 2 || parts.count == 3, let longitude = Double(parts[0]), let latitude = Double(parts[1]) else {
            throw .malformed(formatted(tr("a point’s coordinates “%@” are not longitude,latitude"), String(text.prefix(80))))
        }
        return (longitude, latitude)
    }
}

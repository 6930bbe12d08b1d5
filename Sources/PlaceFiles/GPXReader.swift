import Foundation
import Translations

/// Places in a GPX 1.0/1.1 file: every waypoint and route point; a track becomes one place, at its first
/// point, only in a file with neither (a GPS logger's), since elsewhere it is the way between the places.
final class GPXReader: XMLPlaceParser {
    static let photoCountNamespace = "https://virtualtourist.github.io/xmlns/places/1"

    private let times = TimestampText()
    private var point: PlaceRecord?
    private var pointDescription: String?
    private var trackName: String?
    private var trackStart: PlaceRecord?
    private var trackStarts = PlaceCollector()

    static func read(_ data: Data) throws(PlaceFileError) -> PlaceFileContents {
        let reader = GPXReader()
        try reader.parse(data)
        if reader.collector.places.isEmpty {
            for start in reader.trackStarts.places { try reader.collector.add(start) }
        } else {
            reader.collector.passedOver += reader.trackStarts.places.count
        }
        return try reader.collector.contents(format: .gpx)
    }

    override func isOwnNamespace(_ namespace: String?) -> Bool {
        guard let namespace, !namespace.isEmpty else { return true }
        return namespace.hasPrefix("http://www.topografix.com/GPX/") || namespace == Self.photoCountNamespace
    }

    override func didStart(_ name: String, attributes: [String: String]) throws(PlaceFileError) {
        switch name {
        case "wpt", "rtept":
            point = try Self.point(attributes)
            pointDescription = nil
        case "trkpt" where trackStart == nil:
            point = try Self.point(attributes)
        case "trk":
            trackName = nil
            trackStart = nil
        default:
            break
        }
    }

    override func didEnd(_ name: String, text: String) throws(PlaceFileError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "name" where point != nil:
            point?.name = trimmed.isEmpty ? nil : trimmed
        case "name" where isOpen("trk", at: 1):
            trackName = trimmed.isEmpty ? nil : trimmed
        case "desc" where point != nil:
            pointDescription = trimmed.isEmpty ? nil : trimmed
        case "time" where point != nil:
            point?.createdAt = times.date(from: trimmed)
        case "photoCount" where point != nil:
            point?.photoCount = Int(trimmed)
        case "wpt", "rtept":
            guard var place = point else { return }
            if place.name == nil { place.name = pointDescription }
            point = nil
            try collector.add(place)
        case "trkpt":
            guard let place = point else { return }
            point = nil
            try PlaceCollector.check(place)
            trackStart = place
        case "trk":
            guard var start = trackStart else { return }
            start.name = trackName
            trackStart = nil
            try trackStarts.add(start)
        default:
            break
        }
    }

    private static func point(_ attributes: [String: String]) throws(PlaceFileError) -> PlaceRecord {
        guard let latitude = attributes["lat"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
              let longitude = attributes["lon"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw .malformed(tr("a point without latitude or longitude"))
        }
        return PlaceRecord(name: nil, latitude: latitude, longitude: longitude)
    }
}

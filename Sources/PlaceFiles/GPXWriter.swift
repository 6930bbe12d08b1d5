import Foundation
import Translations

/// GPX 1.1: a waypoint per place; the photo count as text in <desc> and as a number in an extension.
enum GPXWriter {
    static func document(_ places: [PlaceRecord], creator: String, exportedAt: Date) -> Data {
        let times = TimestampText()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<gpx version=\"1.1\" creator=\"\(xmlEscaped(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\""
        xml += " xmlns:vt=\"\(GPXReader.photoCountNamespace)\">\n"
        xml += "  <metadata><time>\(times.text(from: exportedAt))</time></metadata>\n"
        for place in places {
            xml += "  <wpt lat=\"\(decimalText(place.latitude))\" lon=\"\(decimalText(place.longitude))\">"
            // GPX 1.1 fixes the order: time, name, desc, extensions.
            if let date = place.createdAt { xml += "<time>\(times.text(from: date))</time>" }
            if let name = place.name { xml += "<name>\(xmlEscaped(name))</name>" }
            if let count = place.photoCount {
                xml += "<desc>\(xmlEscaped(trn("%d photo", "%d photos", count: count)))</desc>"
                xml += "<extensions><vt:photoCount>\(count)</vt:photoCount></extensions>"
            }
            xml += "</wpt>\n"
        }
        xml += "</gpx>\n"
        return Data(xml.utf8)
    }
}

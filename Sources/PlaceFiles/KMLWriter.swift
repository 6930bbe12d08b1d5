import Foundation
import Translations

/// KML 2.2: a Document with a Placemark per place; the photo count as ExtendedData and as a description.
enum KMLWriter {
    static func document(_ places: [PlaceRecord], name: String) -> Data {
        let times = TimestampText()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n<Document>\n  <name>\(xmlEscaped(name))</name>\n"
        for place in places {
            // KML's schema fixes the order: name, description, TimeStamp, ExtendedData, geometry.
            xml += "  <Placemark>"
            if let name = place.name { xml += "<name>\(xmlEscaped(name))</name>" }
            if let count = place.photoCount {
                xml += "<description>\(xmlEscaped(trn("%d photo", "%d photos", count: count)))</description>"
            }
            if let date = place.createdAt { xml += "<TimeStamp><when>\(times.text(from: date))</when></TimeStamp>" }
            if let count = place.photoCount {
                xml += "<ExtendedData><Data name=\"photoCount\"><value>\(count)</value></Data></ExtendedData>"
            }
            xml += "<Point><coordinates>\(decimalText(place.longitude)),\(decimalText(place.latitude))</coordinates></Point>"
            xml += "</Placemark>\n"
        }
        xml += "</Document>\n</kml>\n"
        return Data(xml.utf8)
    }
}

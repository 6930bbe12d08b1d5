import Foundation
@testable import PlaceFiles
import XCTest
import ZIPFoundation

/// Files in the shapes other programs write: Google Takeout, Organic Maps, a GPS logger, a hiking app.
final class RealWorldPlaceFileTests: XCTestCase {
    private func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testTakeoutSavedPlacesPassesOverPlacesWithoutCoordinates() throws {
        let json = #"""
        {"type":"FeatureCollection","features":[
          {"geometry":{"coordinates":[2.2944813,48.8583701],"type":"Point"},
           "properties":{"date":"2023-05-01T10:00:00Z","google_maps_url":"http://maps.google.com/?cid=1",
                         "location":{"address":"Av. Gustave Eiffel, 75007 Paris, France","country_code":"FR","name":"Eiffel Tower"}},
           "type":"Feature"},
          {"geometry":{"coordinates":[0,0],"type":"Point"},
           "properties":{"date":"2023-05-02T10:00:00Z","google_maps_url":"http://maps.google.com/?q=somewhere",
                         "Comment":"No location information is available for this saved place"},
           "type":"Feature"},
          {"geometry":{"coordinates":[-73.9856644,40.7484405],"type":"Point"},
           "properties":{"date":"2024-01-15T08:30:00.123Z","google_maps_url":"http://maps.google.com/?cid=2",
                         "location":{"address":"20 W 34th St., New York","country_code":"US","name":"Empire State Building"}},
           "type":"Feature"}]}
        """#
        let contents = try PlaceFileReader.read(data: Data(json.utf8), fileName: "Saved Places.json")
        XCTAssertEqual(contents.format, .geoJSON)
        XCTAssertEqual(contents.passedOver, 1)
        XCTAssertEqual(contents.places.map(\.name), ["Eiffel Tower", "Empire State Building"])
        XCTAssertEqual(contents.places[0].latitude, 48.8583701)
        XCTAssertEqual(contents.places[0].longitude, 2.2944813)
        XCTAssertEqual(contents.places[0].createdAt, date("2023-05-01T10:00:00Z"))
        XCTAssertEqual(try XCTUnwrap(contents.places[1].createdAt).timeIntervalSince1970,
                       date("2024-01-15T08:30:00Z").timeIntervalSince1970 + 0.123, accuracy: 0.0005)
    }

    func testOlderTakeoutSavedPlacesReadsTitlesAndTextCoordinates() throws {
        let json = #"""
        {"type":"FeatureCollection","features":[
          {"geometry":{"coordinates":[2.2945,48.8584],"type":"Point"},
           "properties":{"Google Maps URL":"http://maps.google.com/?cid=1","Location":{"Address":"Champ de Mars, Paris",
             "Business Name":"Tour Eiffel","Country Code":"FR","Geo Coordinates":{"Latitude":"48.8584","Longitude":"2.2945"}},
             "Published":"2019-03-01T10:00:00Z","Title":"Eiffel Tower","Updated":"2019-03-02T10:00:00Z"},"type":"Feature"},
          {"properties":{"Google Maps URL":"http://maps.google.com/?cid=2","Location":{"Address":"Piazza del Colosseo, Roma",
             "Business Name":"Colosseo","Geo Coordinates":{"Latitude":"41.8902","Longitude":"12.4922"}},
             "Published":"2018-07-01T09:00:00Z","Updated":"2018-07-01T09:00:00Z"},"type":"Feature"},
          {"geometry":{"coordinates":[0,0],"type":"Point"},
           "properties":{"Google Maps URL":"http://maps.google.com/?q=x","Title":"Lost","Published":"2018-01-01T00:00:00Z"},
           "type":"Feature"}]}
        """#
        let contents = try PlaceFileReader.read(data: Data(json.utf8), fileName: "Saved Places.json")
        XCTAssertEqual(contents.passedOver, 1)
        XCTAssertEqual(contents.places, [
            PlaceRecord(name: "Eiffel Tower", latitude: 48.8584, longitude: 2.2945, createdAt: date("2019-03-01T10:00:00Z")),
            PlaceRecord(name: "Colosseo", latitude: 41.8902, longitude: 12.4922, createdAt: date("2018-07-01T09:00:00Z")),
        ])
    }

    func testGeoJSONLoneFeatureAndOtherGeometries() throws {
        let lone = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5,34]},"properties":{"title":"Berlin","photo_count":3}}"#
        XCTAssertEqual(try PlaceFileReader.read(data: Data(lone.utf8), fileName: nil).places,
                       [PlaceRecord(name: "Berlin", latitude: 52.5, longitude: 13.4, photoCount: 3)])
        let mixed = #"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{}},
          {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,0]]]},"properties":null},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"name":"Null Island"}}]}
        """#
        let contents = try PlaceFileReader.read(data: Data(mixed.utf8), fileName: "x.geojson")
        XCTAssertEqual(contents.passedOver, 2)
        XCTAssertEqual(contents.places, [PlaceRecord(name: "Null Island", latitude: 0, longitude: 0)])
    }

    static let organicMapsKML = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <kml xmlns="http://earth.google.com/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
    <Document>
      <Style id="placemark-red">
        <IconStyle>
          <Icon>
            <href>https://omaps.app/placemarks/placemark-red.png</href>
          </Icon>
        </IconStyle>
      </Style>
      <Style id="placemark-blue"><IconStyle><Icon><href>https://omaps.app/placemarks/placemark-blue.png</href></Icon></IconStyle></Style>
      <name>Paris trip</name>
      <visibility>1</visibility>
      <ExtendedData xmlns:mwm="https://omaps.app">
        <mwm:name>
          <mwm:lang code="default">Paris trip</mwm:lang>
        </mwm:name>
        <mwm:lastModified>2023-05-03T12:00:00Z</mwm:lastModified>
        <mwm:accessRules>Local</mwm:accessRules>
      </ExtendedData>
      <Placemark>
        <name>Louvre &amp; Pyramide</name>
        <description>Musée</description>
        <TimeStamp><when>2023-05-01T10:00:00Z</when></TimeStamp>
        <styleUrl>#placemark-red</styleUrl>
        <Point><coordinates>
            2.337644 , 48.860611
        </coordinates></Point>
        <ExtendedData xmlns:mwm="https://omaps.app">
          <mwm:name>
            <mwm:lang code="default">Louvre</mwm:lang>
            <mwm:lang code="fr">Musée du Louvre</mwm:lang>
          </mwm:name>
          <mwm:icon>Museum</mwm:icon>
          <mwm:scale>17</mwm:scale>
        </ExtendedData>
      </Placemark>
      <Folder>
        <name>Food</name>
        <Folder>
          <Placemark>
            <name><![CDATA[Café <Procope>]]></name>
            <styleUrl>#placemark-blue</styleUrl>
            <Point><coordinates>2.338900,48.853000,35</coordinates></Point>
          </Placemark>
        </Folder>
      </Folder>
      <Placemark>
        <name>Walk along the Seine</name>
        <LineString><coordinates>2.33,48.86 2.34,48.85</coordinates></LineString>
      </Placemark>
      <Placemark>
        <name>Recorded</name>
        <gx:Track><when>2023-05-01T10:00:00Z</when><gx:coord>2.33 48.86 0</gx:coord></gx:Track>
      </Placemark>
    </Document>
    </kml>
    """#

    func testOrganicMapsKMLReadsPointsAtAnyDepthAndIgnoresItsExtensions() throws {
        let contents = try PlaceFileReader.read(data: Data(Self.organicMapsKML.utf8), fileName: "Paris trip.kml")
        XCTAssertEqual(contents.format, .kml)
        XCTAssertEqual(contents.passedOver, 2)
        XCTAssertEqual(contents.places, [
            PlaceRecord(name: "Louvre & Pyramide", latitude: 48.860611, longitude: 2.337644, createdAt: date("2023-05-01T10:00:00Z")),
            PlaceRecord(name: "Café <Procope>", latitude: 48.853, longitude: 2.3389),
        ])
    }

    func testOrganicMapsKMZReadsItsKML() throws {
        let kmz = try KMZArchive.archive(kml: Data(Self.organicMapsKML.utf8))
        let contents = try PlaceFileReader.read(data: kmz, fileName: "Paris trip.kmz")
        XCTAssertEqual(contents.format, .kmz)
        XCTAssertEqual(contents.places.map(\.name), ["Louvre & Pyramide", "Café <Procope>"])
        XCTAssertEqual(contents.passedOver, 2)
    }

    /// Not every KMZ calls its KML doc.kml; a macOS zip adds resource forks beside it.
    func testKMZReadsTheFirstKMLAtAnyLevel() throws {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, content) in [("__MACOSX/trip/._places.kml", Data([0, 5, 22, 7])),
                                ("trip/images/pin.png", Data([0x89, 0x50, 0x4E, 0x47])),
                                ("trip/places.kml", Data(Self.organicMapsKML.utf8))] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(content.count), compressionMethod: .deflate) {
                content.subdata(in: Int($0)..<Int($0) + $1)
            }
        }
        let contents = try PlaceFileReader.read(data: try XCTUnwrap(archive.data), fileName: "trip.kmz")
        XCTAssertEqual(contents.places.map(\.name), ["Louvre & Pyramide", "Café <Procope>"])
    }

    func testGPSLoggerTrackBecomesOnePlaceAtItsStart() throws {
        let gpx = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
        <gpx version="1.0" creator="GPSLogger 131 - http://gpslogger.mendhak.com/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xmlns="http://www.topografix.com/GPX/1/0" xsi:schemaLocation="http://www.topografix.com/GPX/1/0 http://www.topografix.com/GPX/1/0/gpx.xsd">
        <time>2023-05-01T08:00:00.000Z</time>
        <trk>
        <name>20230501</name>
        <trkseg>
        <trkpt lat="47.5596" lon="7.5886"><ele>260.0</ele><time>2023-05-01T08:00:01.000Z</time><course>0.0</course><speed>0.0</speed><src>gps</src><sat>9</sat><hdop>0.9</hdop></trkpt>
        <trkpt lat="47.5600" lon="7.5890"><ele>261.0</ele><time>2023-05-01T08:00:06.000Z</time><src>gps</src></trkpt>
        </trkseg>
        <trkseg>
        <trkpt lat="47.5700" lon="7.6000"><time>2023-05-01T09:00:00.000Z</time></trkpt>
        </trkseg>
        </trk>
        <trk>
        <name>Afternoon</name>
        <trkseg><trkpt lat="47.3769" lon="8.5417"><time>2023-05-01T14:00:00Z</time></trkpt></trkseg>
        </trk>
        </gpx>
        """#
        let contents = try PlaceFileReader.read(data: Data(gpx.utf8), fileName: "20230501.gpx")
        XCTAssertEqual(contents.format, .gpx)
        XCTAssertEqual(contents.places, [
            PlaceRecord(name: "20230501", latitude: 47.5596, longitude: 7.5886, createdAt: date("2023-05-01T08:00:01Z")),
            PlaceRecord(name: "Afternoon", latitude: 47.3769, longitude: 8.5417, createdAt: date("2023-05-01T14:00:00Z")),
        ])
    }

    func testGPXWaypointsFromAnotherAppPassOverItsTrack() throws {
        let gpx = #"""
        <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
        <gpx version="1.1" creator="OsmAnd~ 4.6.10" xmlns="http://www.topografix.com/GPX/1/1" xmlns:osmand="https://osmand.net"
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <metadata><name>favourites</name><time>2023-06-01T00:00:00Z</time></metadata>
          <wpt lat="46.5580" lon="7.8350">
            <time>2023-06-01T09:15:00Z</time>
            <name>Kleine Scheidegg</name>
            <desc>Bahnhof</desc>
            <type>Transport</type>
            <extensions><osmand:icon>railway_station</osmand:icon><osmand:name>not this</osmand:name></extensions>
          </wpt>
          <wpt lat="46.5775" lon="7.9845"><desc>Eiger north face</desc></wpt>
          <rte><name>Route</name><rtept lat="46.6241" lon="8.0414"><name>Grindelwald</name></rtept></rte>
          <trk><name>Hike</name><trkseg><trkpt lat="46.55" lon="7.83"/></trkseg></trk>
        </gpx>
        """#
        let contents = try PlaceFileReader.read(data: Data(gpx.utf8), fileName: "favourites.gpx")
        XCTAssertEqual(contents.passedOver, 1)
        XCTAssertEqual(contents.places, [
            PlaceRecord(name: "Kleine Scheidegg", latitude: 46.558, longitude: 7.835, createdAt: date("2023-06-01T09:15:00Z")),
            PlaceRecord(name: "Eiger north face", latitude: 46.5775, longitude: 7.9845),
            PlaceRecord(name: "Grindelwald", latitude: 46.6241, longitude: 8.0414),
        ])
    }
}

import Foundation
import Translations

/// The file formats places are read from and written to.
public enum PlaceFileFormat: String, CaseIterable, Sendable {
    case gpx, kml, kmz, geoJSON

    public var fileExtension: String {
        switch self {
        case .gpx: "gpx"
        case .kml: "kml"
        case .kmz: "kmz"
        case .geoJSON: "geojson"
        }
    }

    public var mediaType: String {
        switch self {
        case .gpx: "application/gpx+xml"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .kmz: "application/vnd.google-earth.kmz"
        case .geoJSON: "application/geo+json"
        }
    }

    /// The format's name in a file chooser's filter list.
    public var displayName: String {
        switch self {
        case .gpx: tr("GPX waypoints")
        case .kml: tr("KML placemarks")
        case .kmz: tr("KMZ (zipped KML)")
        case .geoJSON: tr("GeoJSON")
        }
    }

    /// The format a file name's extension promises; Takeout's "Saved Places.json" counts as GeoJSON.
    public static func guess(fileName: String) -> PlaceFileFormat? {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "gpx": .gpx
        case "kml": .kml
        case "kmz": .kmz
        case "geojson", "json": .geoJSON
        default: nil
        }
    }
}

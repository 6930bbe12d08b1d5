import Foundation

/// Writes places in any of the formats `PlaceFileReader` reads back exactly.
public enum PlaceFileWriter {
    /// `creator` names the program (GPX's creator, KML's document name); `exportedAt` is GPX's metadata time.
    public static func data(for places: [PlaceRecord], format: PlaceFileFormat, creator: String,
                            exportedAt: Date = Date()) throws(PlaceFileError) -> Data {
        for place in places { try PlaceCollector.check(place) }
        switch format {
        case .gpx: return GPXWriter.document(places, creator: creator, exportedAt: exportedAt)
        case .kml: return KMLWriter.document(places, name: creator)
        case .kmz: return try KMZArchive.archive(kml: KMLWriter.document(places, name: creator))
        case .geoJSON: return GeoJSONWriter.document(places)
        }
    }
}

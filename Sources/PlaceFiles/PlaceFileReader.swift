import Foundation

/// What a places file held: its places and how many other entries were passed over.
public struct PlaceFileContents: Equatable, Sendable {
    public var format: PlaceFileFormat
    public var places: [PlaceRecord]
    /// Entries that were not places and were passed over, e.g. Takeout places without coordinates, KML lines/polygons.
    public var passedOver: Int

    public init(format: PlaceFileFormat, places: [PlaceRecord], passedOver: Int) {
        self.format = format
        self.places = places
        self.passedOver = passedOver
    }
}

/// Reads a places file whole or refuses it whole: any error means nothing is to be imported.
public enum PlaceFileReader {
    /// 64 MiB: the cap on a file, and on a KMZ's unpacked KML.
    public static let maximumFileBytes = 64 * 1024 * 1024
    public static let maximumPlaces = 100_000

    public static func read(contentsOf url: URL) throws(PlaceFileError) -> PlaceFileContents {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // One byte past the cap tells an over-large file without reading all of it.
            data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
        } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
        return try read(data: data, fileName: url.lastPathComponent)
    }

    /// Reads by content (zip, XML root gpx or kml, JSON), else by the file name's extension. UTF-16 is read as
    /// the UTF-8 it becomes, so the screen sees every declaration whatever the file's encoding.
    public static func read(data: Data, fileName: String?) throws(PlaceFileError) -> PlaceFileContents {
        guard data.count <= maximumFileBytes else { throw .tooLarge }
        guard !data.isEmpty else { throw .noPlaces }
        let text = try TextEncoding.utf8(data)
        switch sniff(text) ?? fileName.flatMap(PlaceFileFormat.guess(fileName:)) {
        case .kmz?:
            let kml = try TextEncoding.utf8(KMZArchive.kml(in: data, limit: maximumFileBytes))
            try XMLScreen.refuseDeclarations(in: kml)
            return try KMLReader.read(kml, format: .kmz)
        case .kml?:
            try XMLScreen.refuseDeclarations(in: text)
            return try KMLReader.read(text)
        case .gpx?:
            try XMLScreen.refuseDeclarations(in: text)
            return try GPXReader.read(text)
        case .geoJSON?:
            return try GeoJSONReader.read(text)
        case nil:
            // XML of another kind with a declaration is reported as what it is.
            do { try XMLScreen.refuseDeclarations(in: text) } catch .declarationsRefused { throw .declarationsRefused } catch {}
            throw .unknownFormat
        }
    }

    private static func sniff(_ data: Data) -> PlaceFileFormat? {
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .kmz }
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard let first = text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        switch first {
        case UInt8(ascii: "<"):
            switch XMLScreen.rootName(of: Data(text.prefix(64 * 1024))) {
            case "gpx": return .gpx
            case "kml": return .kml
            default: return nil
            }
        case UInt8(ascii: "{"):
            return .geoJSON
        default:
            return nil
        }
    }
}

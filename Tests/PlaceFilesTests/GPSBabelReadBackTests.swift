import Foundation
import PlaceFiles
import XCTest

/// Another program reads what Virtual Tourist exports: GPSBabel, through its GPX, KML and GeoJSON readers.
final class GPSBabelReadBackTests: XCTestCase {
    private static let places = [
        PlaceRecord(name: "Café & <Bar> \"quoted\" 🏔️", latitude: 48.858370123, longitude: 2.2945,
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000), photoCount: 12),
        PlaceRecord(name: "Zürich Hauptbahnhof", latitude: 47.378177, longitude: 8.540192, photoCount: 1),
        PlaceRecord(name: "North Pole", latitude: 90, longitude: 180),
        PlaceRecord(name: "South West", latitude: -90, longitude: -180, createdAt: Date(timeIntervalSince1970: 0)),
        PlaceRecord(name: "Tiny", latitude: -0.000001, longitude: 0.0000005),
    ]

    private static func gpsbabel() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("gpsbabel") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    func testGPSBabelReadsNamesAndCoordinatesOfEveryExport() throws {
        guard let gpsbabel = Self.gpsbabel() else { throw XCTSkip("gpsbabel is not on PATH") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("placefiles-gpsbabel-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (format, babelFormat) in [(PlaceFileFormat.gpx, "gpx"), (.kml, "kml"), (.geoJSON, "geojson")] {
            let file = folder.appendingPathComponent("places.\(format.fileExtension)")
            try PlaceFileWriter.data(for: Self.places, format: format, creator: "Virtual Tourist").write(to: file)
            let rows = try Self.run(gpsbabel, ["-i", babelFormat, "-f", file.path, "-o", "unicsv", "-F", "-"])
            XCTAssertEqual(rows.first?.prefix(4), ["No", "Latitude", "Longitude", "Name"], "\(format)")
            let read = rows.dropFirst()
            XCTAssertEqual(read.map { $0[3] }, Self.places.map(\.name), "\(format)")
            for (row, place) in zip(read, Self.places) {
                XCTAssertEqual(try XCTUnwrap(Double(row[1])), place.latitude, accuracy: 0.0000006, "\(format) \(row)")
                XCTAssertEqual(try XCTUnwrap(Double(row[2])), place.longitude, accuracy: 0.0000006, "\(format) \(row)")
            }
        }
    }

    /// GPSBabel's unicsv rows, its quoted fields ("" for a quote) unquoted.
    private static func run(_ executable: URL, _ arguments: [String]) throws -> [[String]] {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { line in
            var fields: [String] = []
            var field = ""
            var quoted = false
            var characters = Array(line)[...]
            while let character = characters.popFirst() {
                switch character {
                case "\"" where quoted && characters.first == "\"": field.append("\""); characters.removeFirst()
                case "\"": quoted.toggle()
                case "," where !quoted: fields.append(field); field = ""
                default: field.append(character)
                }
            }
            fields.append(field)
            return fields
        }
    }
}

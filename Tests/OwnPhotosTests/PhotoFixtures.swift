import Foundation
import XCTest

/// Real photo files for the tests, made by ImageMagick and tagged by exiftool or exiv2, in a temporary folder.
struct PhotoFixtures {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("own-photos-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    func folder(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A 64×48 red JPEG without metadata.
    @discardableResult
    func plainJPEG(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.run("convert", "-size", "64x48", "xc:red", url.path)
        return url
    }

    /// A JPEG tagged by exiftool: decimal degrees, the signs given by the references.
    @discardableResult
    func exiftoolJPEG(_ relative: String, latitude: Double, longitude: Double, taken: String?, orientation: Int = 1) throws -> URL {
        let url = try plainJPEG(relative)
        var arguments = ["-overwrite_original", "-q",
                         "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                         "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
                         "-Orientation#=\(orientation)"]
        if let taken { arguments.append("-DateTimeOriginal=\(taken)") }
        try Self.run("exiftool", arguments + [url.path])
        return url
    }

    static func run(_ tool: String, _ arguments: String...) throws {
        try run(tool, arguments)
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "PhotoFixtures", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments.joined(separator: " ")) failed"])
        }
    }

    /// Every regular file's bytes under `root`, to show indexing changed none.
    func contents() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey])
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values.isRegularFile == true, values.isSymbolicLink != true {
                result[url.path] = try Data(contentsOf: url)
            }
        }
        return result
    }
}

/// One kilometre north is this many degrees of latitude (on the index's sphere).
let degreesPerKilometre = 180 / (Double.pi * 6371.0088)

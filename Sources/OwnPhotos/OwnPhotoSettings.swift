#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Translations

/// Whether the user's own photos are shown, and from which folders; kept in own-photos.json in the config folder.
public struct OwnPhotoSettings: Codable, Equatable, Sendable {
    /// Off until the user turns it on: their photos are read only with their say-so.
    public var enabled: Bool
    /// Absolute paths; empty means "the Pictures folder".
    public var folders: [String]

    public static let fileName = "own-photos.json"

    public init(enabled: Bool = false, folders: [String] = []) {
        self.enabled = enabled
        self.folders = folders
    }

    /// The saved settings; off when there are none or the file cannot be read (a broken file is not an error to show).
    public static func load(from configFolder: URL) -> OwnPhotoSettings {
        let url = configFolder.appendingPathComponent(fileName, isDirectory: false)
        guard let data = try? Data(contentsOf: url),
              let settings = try? JSONDecoder().decode(OwnPhotoSettings.self, from: data) else { return OwnPhotoSettings() }
        return settings
    }

    /// Written whole (a temporary file renamed into place) and readable by the user alone: folder names are private.
    public func save(to configFolder: URL) throws {
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        let target = configFolder.appendingPathComponent(Self.fileName, isDirectory: false)
        let temporary = configFolder.appendingPathComponent(".\(Self.fileName).\(UUID().uuidString)", isDirectory: false)
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw SettingsError.notWritten(folder: configFolder.path)
        }
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw SettingsError.notWritten(folder: configFolder.path)
        }
    }

    /// The folders to index: those chosen, or else the Pictures folder (none when there is no such folder).
    public func effectiveFolders(environment: [String: String]) -> [URL] {
        let chosen = folders.filter { $0.hasPrefix("/") }
        guard !chosen.isEmpty else { return PicturesFolder.locate(environment: environment).map { [$0] } ?? [] }
        var seen = Set<String>()
        return chosen.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
            .filter { seen.insert($0.path).inserted }
    }

    public enum SettingsError: LocalizedError {
        case notWritten(folder: String)

        public var errorDescription: String? {
            switch self {
            case .notWritten(let folder):
                // Translators: %@ is a folder, e.g. "/home/ana/.config/virtual-tourist".
                formatted(tr("The settings for your own photos could not be saved in %@. Check that the folder belongs to you and the disk is not full, then try again."), folder)
            }
        }
    }
}

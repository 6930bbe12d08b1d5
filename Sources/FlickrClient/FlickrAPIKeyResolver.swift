import Foundation
import KeptFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Translations

/// A Flickr API key. Printing it never shows the key: use `value` only to build a request.
public struct FlickrAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    /// Trims whitespace; `nil` when nothing is left.
    public init?(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        value = trimmed
    }

    public var description: String { "FlickrAPIKey(\(Redaction.placeholder))" }
    public var debugDescription: String { description }
}

/// Finds the API key: `FLICKR_API_KEY` in the environment, else the key the user saved in
/// `<configFolder>/flickr-api-key`, else the key baked in at build time.
public struct FlickrAPIKeyResolver: Sendable {
    public enum Source: String, Sendable, Hashable {
        case environment, user, builtIn, none
    }

    public struct Resolution: Sendable, Hashable {
        public let key: FlickrAPIKey?
        public let source: Source

        public init(key: FlickrAPIKey?, source: Source) {
            self.key = key
            self.source = key == nil ? .none : source
        }
    }

    public static let environmentVariable = "FLICKR_API_KEY"
    public static let fileName = "flickr-api-key"

    public let configFolder: URL
    public let builtInKey: String
    public let environment: [String: String]

    /// - Parameters:
    ///   - configFolder: the app's own settings folder, e.g. `$XDG_CONFIG_HOME/virtual-tourist`.
    ///   - builtInKey: the key baked in by meson; empty for none.
    public init(configFolder: URL, builtInKey: String = "",
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configFolder = configFolder
        self.builtInKey = builtInKey
        self.environment = environment
    }

    public var keyFile: URL { configFolder.appendingPathComponent(Self.fileName, isDirectory: false) }

    /// The key to use now and where it came from. Reads the saved file each time, so a key saved in
    /// Preferences takes effect on the next search.
    public func resolve() -> Resolution {
        if let key = environment[Self.environmentVariable].flatMap(FlickrAPIKey.init) {
            return Resolution(key: key, source: .environment)
        }
        if let key = savedKey() {
            return Resolution(key: key, source: .user)
        }
        if let key = FlickrAPIKey(builtInKey) {
            return Resolution(key: key, source: .builtIn)
        }
        return Resolution(key: nil, source: .none)
    }

    /// The key the user saved, or `nil` when there is none (or it is empty or unreadable).
    public func savedKey() -> FlickrAPIKey? {
        guard let data = FileManager.default.contents(atPath: keyFile.path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return FlickrAPIKey(text)
    }

    /// Saves `key` for this user: written atomically, file 0600 in a 0700 folder.
    /// An empty (or all-whitespace) key removes the saved one.
    public func saveKey(_ key: String) throws(FlickrError) {
        guard let apiKey = FlickrAPIKey(key) else {
            try removeSavedKey()
            return
        }
        try prepareFolder()
        var bytes = Array((apiKey.value + "\n").utf8)
        defer { bytes.removeAll() }
        do {
            try WholeFile.write(bytes, to: keyFile.path, permissions: 0o600, durable: true)
        } catch {
            throw fileError(keyFile, error.code.rawValue)
        }
    }

    /// Forgets the saved key; succeeds when there was none.
    public func removeSavedKey() throws(FlickrError) {
        if unlink(keyFile.path) != 0 && errno != ENOENT {
            throw fileError(keyFile, errno)
        }
    }

    private func prepareFolder() throws(FlickrError) {
        do {
            try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw FlickrError.fileSystem(path: configFolder.path, reason: tr("the folder could not be created"))
        }
        // The folder may predate us with looser permissions; it holds a secret, so tighten it.
        if chmod(configFolder.path, 0o700) != 0 { throw fileError(configFolder, errno) }
    }

    private func fileError(_ url: URL, _ code: Int32) -> FlickrError {
        .fileSystem(path: url.path, reason: String(cString: strerror(code)))
    }
}

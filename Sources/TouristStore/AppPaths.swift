import Foundation

/// Where Virtual Tourist keeps its files, following the XDG Base Directory specification.
public struct AppPaths: Sendable, Equatable {
    /// The folder name used under each XDG base directory.
    public static let folderName = "virtual-tourist"

    /// Data the user would miss: the database and downloaded photos.
    public let dataFolder: URL
    /// Data that can be downloaded again: map tiles.
    public let cacheFolder: URL
    /// Settings.
    public let configFolder: URL

    /// Computes the folders from `XDG_DATA_HOME`, `XDG_CACHE_HOME`, `XDG_CONFIG_HOME` and `HOME`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = Self.absolutePath(environment["HOME"])
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        func base(_ variable: String, fallback: String) -> URL {
            let path = Self.absolutePath(environment[variable])
                ?? URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback).path
            return URL(fileURLWithPath: path, isDirectory: true)
                .appendingPathComponent(Self.folderName, isDirectory: true)
        }
        dataFolder = base("XDG_DATA_HOME", fallback: ".local/share")
        cacheFolder = base("XDG_CACHE_HOME", fallback: ".cache")
        configFolder = base("XDG_CONFIG_HOME", fallback: ".config")
    }

    /// Uses the given folders as they are (for tests and custom set-ups).
    public init(dataFolder: URL, cacheFolder: URL, configFolder: URL) {
        self.dataFolder = dataFolder
        self.cacheFolder = cacheFolder
        self.configFolder = configFolder
    }

    /// The SQLite database file.
    public var databaseURL: URL {
        dataFolder.appendingPathComponent("VirtualTourist.sqlite", isDirectory: false)
    }

    /// Downloaded photos; `Photo.filePath` values are relative to `dataFolder` and start with `photos/`.
    public var photosFolder: URL {
        dataFolder.appendingPathComponent(AppDatabase.photosFolderName, isDirectory: true)
    }

    /// Downloads in progress, on the same disk as the photos so that keeping one is a rename.
    /// Nothing in it outlives the run that wrote it: it is emptied at every start.
    public var stagingFolder: URL {
        dataFolder.appendingPathComponent("staging", isDirectory: true)
    }

    /// Bigger sizes of photos fetched for the photo viewer (re-fetchable, so in the cache).
    public var largePhotosFolder: URL {
        cacheFolder.appendingPathComponent("large-photos", isDirectory: true)
    }

    /// The album grid's pictures of downloaded photos (made again from the photos when missing).
    public var thumbnailsFolder: URL {
        cacheFolder.appendingPathComponent("thumbnails", isDirectory: true)
    }

    /// Map tiles cached by the map widget.
    public var tileCacheFolder: URL {
        cacheFolder.appendingPathComponent("tiles", isDirectory: true)
    }

    // The XDG spec says relative or empty values are invalid and must be ignored.
    private static func absolutePath(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}

import FlickrClient
import Foundation
import KeptFiles
import Logging
import TouristStore

/// A photo's bigger size for the photo viewer, on disk.
public struct LargePhoto: Sendable {
    public var file: URL
}

/// Bigger sizes of album photos (`Photo.largeURL`), fetched only when viewed and, being re-fetchable, only the
/// newest `capacity` kept; staged beside the cache so keeping one is a rename. Call off the main thread.
public final class LargePhotoCache: Sendable {
    public let folder: URL
    private let downloader: any PhotoDownloading
    private let capacity: Int
    private let logger: Logger

    /// - parameter downloader: stages into `LargePhotoCache.stagingFolder(in: folder)`.
    public init(folder: URL, downloader: any PhotoDownloading, capacity: Int = 200, logger: Logger) {
        self.folder = folder
        self.downloader = downloader
        self.capacity = max(1, capacity)
        self.logger = logger
    }

    /// Where this cache's downloader stages bodies: inside the cache's folder (one file system).
    public static func stagingFolder(in folder: URL) -> URL {
        folder.appendingPathComponent("staging", isDirectory: true)
    }

    /// Clears what a killed run left staged, once, before the first download.
    private func prepareOnce() {
        preparation.lock()
        defer { preparation.unlock() }
        guard !prepared.value else { return }
        prepared.value = true
        let staging = Self.stagingFolder(in: folder)
        try? FileManager.default.removeItem(at: staging)
        try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    private let preparation = NSLock()
    private let prepared = Flag()

    /// The cached file of `photo`'s bigger size, if there is one (it is marked as just used).
    public func cached(_ photo: Photo) -> URL? {
        guard photo.largeURL != nil else { return nil }
        let stem = Self.fileStem(of: photo)
        for format in ["jpg", "png", "gif", "webp"] {
            let file = folder.appendingPathComponent("\(stem).\(format)")
            if FileManager.default.fileExists(atPath: file.path) {
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
                return file
            }
        }
        return nil
    }

    /// The bigger size of `photo`: from the cache, or downloaded now. Fails with `.invalidEndpoint`
    /// when Flickr has no bigger size of it; cancelling the calling task cancels the download.
    public func largePhoto(of photo: Photo) async -> Result<LargePhoto, FlickrError> {
        guard let text = photo.largeURL, let url = URL(string: text) else {
            return .failure(.invalidEndpoint("no bigger size"))
        }
        if let file = cached(photo) { return .success(LargePhoto(file: file)) }
        prepareOnce()
        let stem = Self.fileStem(of: photo)
        let folder = self.folder
        let outcome = Outcome()
        await downloader.download([PhotoDownloadRequest(photoID: photo.flickrId, source: url)]) { event in
            switch event.result {
            case .failure(let error):
                outcome.set(.failure(error))
            case .success(let staged):
                let file = folder.appendingPathComponent("\(stem).\(staged.format.fileExtension)")
                // A rename within one file system: the file is whole or absent, never half-written.
                if rename(staged.file.path, file.path) == 0 {
                    staged.keep?(file.path) // the download's check decode, for the viewer
                    outcome.set(.success(LargePhoto(file: file)))
                } else {
                    let reason = String(cString: strerror(errno))
                    outcome.set(.failure(.fileSystem(path: file.lastPathComponent, reason: reason)))
                }
            }
        }
        let result = outcome.value ?? .failure(.cancelled)
        if case .success = result {
            trim()
        } else if case .failure(let error) = result, error != .cancelled {
            logger.info("Could not fetch the bigger size of photo \(photo.flickrId): \(error.userMessage)")
        }
        return result
    }

    /// Keeps the `capacity` most recently used files.
    func trim() {
        CacheTrim.keepNewest(in: folder, count: capacity)
    }

    /// A name made only of safe characters, from the photo's id and its URL's file name (Flickr's
    /// `{id}_{secret}_b`), so a new URL for the same photo is a new file.
    static func fileStem(of photo: Photo) -> String {
        let urlName = photo.largeURL.flatMap(URL.init(string:))?.deletingPathExtension().lastPathComponent ?? ""
        let safe = { (text: String) in
            String(String.UnicodeScalarView(text.unicodeScalars.filter {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-")
            }.prefix(80)))
        }
        return safe(photo.flickrId) + "-" + safe(urlName)
    }

    private final class Flag: @unchecked Sendable {
        // @unchecked: read and written only under `preparation`.
        var value = false
    }

    /// The receiver's one result, handed from the download's task.
    private final class Outcome: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var stored: Result<LargePhoto, FlickrError>?
        func set(_ result: Result<LargePhoto, FlickrError>) { lock.withLock { stored = result } }
        var value: Result<LargePhoto, FlickrError>? { lock.withLock { stored } }
    }
}

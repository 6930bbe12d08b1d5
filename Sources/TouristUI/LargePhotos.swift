import FlickrClient
import Foundation
import TouristAlbums
import TouristStore

/// The photo viewer's bigger sizes: fetched and kept on disk by `LargePhotoCache`, and each decoded once — as its
/// download's check decoded it (`LargePhotoDecodes`), else from its file.
struct LargePhotos: Sendable {
    let cache: LargePhotoCache
    let decodes: LargePhotoDecodes

    /// The bigger size of `photo`, decoded with its shorter side at most `shorterSide` device pixels. Off the main thread.
    func decoded(_ photo: Photo, shorterSide: Int32) async -> Result<DecodedPixbuf, FlickrError> {
        await cache.largePhoto(of: photo).flatMap { large in
            let path = large.file.path
            return (decodes.take(path) ?? ImageDecoding.largePhoto(path: path, shorterSide: shorterSide))
                .map { .success($0) } ?? .failure(.unusableImage(.damaged))
        }
    }
}

/// Bigger sizes as their download's check decoded them, by file, until the viewer takes them. Holds the newest few:
/// the viewer asks for one photo at a time, and one it has moved past is decoded from its file if it comes back.
final class LargePhotoDecodes: @unchecked Sendable {
    // @unchecked: `decodes` is guarded by `lock`.
    private let lock = NSLock()
    private var decodes: [(path: String, decoded: DecodedPixbuf)] = []
    private let capacity = 4

    func keep(_ decoded: DecodedPixbuf, at path: String) {
        lock.withLock {
            decodes.removeAll { $0.path == path }
            decodes.append((path, decoded))
            if decodes.count > capacity { decodes.removeFirst(decodes.count - capacity) }
        }
    }

    /// The decode kept for the file at `path`, handed over once.
    func take(_ path: String) -> DecodedPixbuf? {
        lock.withLock {
            guard let index = decodes.firstIndex(where: { $0.path == path }) else { return nil }
            return decodes.remove(at: index).decoded
        }
    }
}

import CGtk
import Foundation
import GLibSwift
import KeptFiles

/// The album grid's pictures: the one answer to "the picture of this photo at this size". A picture kept from an
/// earlier decode is read back (`KeptPicture`); otherwise the photo is decoded at the grid's size and its picture
/// kept. A download's own decode (its check that the file is an image) is kept the same way (`keep`), so a photo is
/// decoded once. Off the main actor: everything here reads, decodes or writes files.
final class AlbumPictures: @unchecked Sendable {
    // @unchecked: `keeping` is guarded by `lock`; the rest is immutable.
    let folder: URL
    private let budget: Int
    private let photoPath: @Sendable (String) -> String
    private let lock = NSLock()
    /// Downloads' decodes on their way to disk, by photo file: a tile asking for one meanwhile takes it from here.
    private var keeping: [String: Task<AlbumPicture?, Never>] = [:]

    /// The pictures of about a hundred albums at the grid's size on a screen of scale 1 (25 at scale 2).
    static let defaultBudget = 256 << 20

    /// - parameter photoPath: a photo file's absolute path from its data-folder-relative one (the store's).
    /// - parameter budget: the bytes `trim` keeps.
    init(folder: URL, budget: Int = AlbumPictures.defaultBudget, photoPath: @escaping @Sendable (String) -> String) {
        self.folder = folder
        self.budget = max(0, budget)
        self.photoPath = photoPath
    }

    /// The picture of the photo file at `relativePath`, `side` device pixels square at `scale`: its kept picture, else
    /// the photo decoded and kept; nil if the file is gone or does not decode.
    func picture(of relativePath: String, side: Int32, scale: Int32) async -> AlbumPicture? {
        if let pending = lock.withLock({ keeping[relativePath] }), let picture = await pending.value,
           picture.picture.width == side {
            return picture
        }
        let photo = photoPath(relativePath)
        let kept = file(for: relativePath, side: side).path
        if let surface = KeptPicture.read(path: kept, side: side, photo: photo) {
            return AlbumPicture(picture: PaintablePicture(adopting: surface, scale: scale), origin: .kept)
        }
        guard let decoded = ImageDecoding.squareThumbnail(path: photo, side: side),
              let surface = ImageSurfaces.surface(from: decoded.pixbuf) else { return nil }
        KeptPicture.write(surface, to: kept, photo: photo)
        return AlbumPicture(picture: PaintablePicture(adopting: surface, scale: scale), origin: .decoded)
    }

    /// The pictures of an album's photo files, read or decoded as many at a time as the executor has threads.
    func pictures(of relativePaths: [String], side: Int32, scale: Int32) async -> [String: AlbumPicture] {
        await withTaskGroup(of: (String, AlbumPicture?).self) { group in
            for relativePath in relativePaths {
                group.addTask(priority: .userInitiated) {
                    (relativePath, await self.picture(of: relativePath, side: side, scale: scale))
                }
            }
            var pictures: [String: AlbumPicture] = [:]
            for await (relativePath, picture) in group { pictures[relativePath] = picture }
            return pictures
        }
    }

    /// Keeps a download's decode (at the grid's size) as the picture of the photo file now at `relativePath`.
    func keep(_ decoded: DecodedPixbuf, of relativePath: String) {
        // Made and recorded under the lock, so the task's own removal (which takes the lock) always comes after.
        lock.withLock {
            keeping[relativePath] = Task.detached(priority: .utility) { [self] () -> AlbumPicture? in
                defer { _ = lock.withLock { keeping.removeValue(forKey: relativePath) } }
                let side = gdk_pixbuf_get_width(decoded.pixbuf)
                guard let surface = ImageSurfaces.surface(from: decoded.pixbuf) else { return nil }
                KeptPicture.write(surface, to: file(for: relativePath, side: side).path, photo: photoPath(relativePath))
                return AlbumPicture(picture: PaintablePicture(adopting: surface, scale: max(1, side / PhotoTile.side)),
                                    origin: .download)
            }
        }
    }

    /// Where the picture of the photo at `relativePath` (`photos/<pin>/<id>-<tag>.jpg`, unique to one download) is
    /// kept at `side` pixels.
    func file(for relativePath: String, side: Int32) -> URL {
        folder.appendingPathComponent("\(side)", isDirectory: true)
            .appendingPathComponent(relativePath.replacingOccurrences(of: "/", with: "_") + KeptPicture.suffix)
    }

    /// Removes the pictures of the oldest photos beyond `budget` bytes, and anything else in the folder (an
    /// interrupted write, an earlier format). Grows with the cache: run it in the background.
    func trim() {
        CacheTrim.keepNewest(in: folder, bytes: budget, depth: 2,
                             belongs: { $0.lastPathComponent.hasSuffix(KeptPicture.suffix) })
    }
}

/// A photo's picture at the grid's size, ready to paint, and where it came from.
struct AlbumPicture: Sendable {
    let picture: PaintablePicture
    let origin: Origin

    enum Origin: CustomStringConvertible, Sendable {
        /// Its download's own decode.
        case download
        /// Its picture kept from an earlier decode.
        case kept
        /// Its file, decoded (and then kept).
        case decoded

        /// As the trace log says it (the benchmarks read it).
        var description: String {
            switch self {
            case .download: return "decoded at download"
            case .kept: return "read from its thumbnail"
            case .decoded: return "decoded from its file"
            }
        }
    }
}

import CGtk
import CShims
import Foundation
import GLibSwift
import WebAccess

/// The album grid's pictures (a photo's centre square at the grid's size), kept in the cache folder, so an
/// album opened again shows its photos without decoding them again: a photo is decoded once, as it arrives
/// (or the first time its album is opened), and its grid-sized picture is read back after that. Pictures are kept
/// as cairo holds them in memory (90 KB at 150×150), not compressed: reading one back is a read, where decoding even
/// a small JPEG cost the album's first frame ~2 ms of two busy cores. It is a cache: a picture that is missing,
/// unreadable, of another size or older than its photo's file (the file was changed or damaged since: its
/// modification time is the picture's) is made again from the photo, and beyond `budget` bytes the oldest go.
///
/// Everything here runs off the main thread.
final class ThumbnailCache: Sendable {
    let folder: URL
    private let budget: Int
    /// Where `keep` writes (nil: on the caller's thread).
    private let keeping: BackgroundThread?

    /// The pictures of about a hundred albums at the grid's size on a screen of scale 1 (25 at scale 2).
    static let defaultBudget = 256 << 20

    /// - parameter budget: the bytes `trim` keeps.
    /// - parameter keeping: the thread `keep` encodes and writes pictures on: nobody waits for them, so it should
    ///   run below the threads that decode what is on its way to the screen (nil: `keep` writes before it returns).
    init(folder: URL, budget: Int = ThumbnailCache.defaultBudget, keeping: BackgroundThread? = nil) {
        self.folder = folder
        self.budget = max(0, budget)
        self.keeping = keeping
    }

    /// Where the picture of the photo at `relativePath` (`photos/<pin>/<id>-<tag>.jpg`, unique to one
    /// download) is kept at `side` pixels.
    func file(for relativePath: String, side: Int32) -> URL {
        folder.appendingPathComponent("\(side)", isDirectory: true)
            .appendingPathComponent(relativePath.replacingOccurrences(of: "/", with: "_") + ".kept")
    }

    /// The kept picture, ready to paint at `scale` device pixels per point, if there is a good one of this size for
    /// the photo's file at `photo` as it is now; nil otherwise (then decode the photo). It is kept as cairo keeps it
    /// in memory, so reading it back is one read into a new image, with nothing to decode; or into one of `lent`, if
    /// there is one of this size left, with no new image either.
    func load(relativePath: String, side: Int32, scale: Int32, photo: String, into lent: LentImages? = nil)
        -> PaintablePicture? {
        guard var stamp = Self.modified(photo) else { return nil }
        let path = file(for: relativePath, side: side).path
        var noGoodPicture = false
        if let picture = lent?.fill(side: side, scale: scale, { image in
            let read = vt_kept_picture_read_into(path, side, side, &stamp, CAIRO_FORMAT_RGB24, image.data, image.stride)
            noGoodPicture = read < 0
            return read > 0
        }) {
            return picture
        }
        // None lent, or one with transparency: read as it is. One found missing or damaged is not looked for twice.
        guard !noGoodPicture, let surface = vt_kept_picture_read(path, side, side, &stamp) else { return nil }
        return PaintablePicture(adopting: surface, scale: scale)
    }

    /// Keeps `thumbnail` as the picture of `relativePath`, whose file is at `photo`, stamped with the file's
    /// modification time. It is written beside its place and renamed there, so a reader never finds half of one.
    func save(_ thumbnail: DecodedPixbuf, relativePath: String, side: Int32, photo: String) {
        guard let stamp = Self.modified(photo), // the photo is gone already
              let surface = ImageSurfaces.surface(from: thumbnail.pixbuf) else { return }
        defer { cairo_surface_destroy(surface) }
        let target = file(for: relativePath, side: side)
        let part = target.appendingPathExtension("\(UUID().uuidString).part") // two tiles may keep the same photo at once
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        var header = [UInt8](repeating: 0, count: Int(VT_KEPT_HEADER_SIZE))
        guard vt_kept_picture_header(surface, &header) != 0, let rows = cairo_image_surface_get_data(surface) else { return }
        var bytes = header
        bytes.append(contentsOf: UnsafeBufferPointer(start: rows, count: Int(cairo_image_surface_get_stride(surface))
                                                                         * Int(cairo_image_surface_get_height(surface))))
        let written = (try? NewFile.create(bytes, to: part.path, permissions: 0o644)) != nil
        let times = [stamp, stamp] // access and modification time: the photo's
        let stamped = written && utimensat(AT_FDCWD, part.path, times, 0) == 0
        if !stamped || rename(part.path, target.path) != 0 {
            unlink(part.path) // a full disk costs the next open a decode, nothing more
        }
    }

    /// `save`s `thumbnail` on the keeping thread, after the pictures given to it before; returns at once. A decode
    /// made for the screen (an album opened whose pictures are not kept) is not held up by its encode and write.
    /// `photo` is worked out there too.
    func keep(_ thumbnail: DecodedPixbuf, relativePath: String, side: Int32,
              photo: @autoclosure @escaping @Sendable () -> String) {
        guard let keeping else { return save(thumbnail, relativePath: relativePath, side: side, photo: photo()) }
        keeping.run { [self] in save(thumbnail, relativePath: relativePath, side: side, photo: photo()) }
    }

    /// Removes the pictures of the oldest photos beyond `budget` bytes, what an interrupted write left, and pictures
    /// kept in an earlier format. Grows with the cache (bounded by `budget`): run it in the background.
    func trim() {
        let keys: Set<URLResourceKey> = [.contentModificationDateKey, .fileSizeKey]
        guard let sizes = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) else {
            return
        }
        var kept: [(file: URL, date: Date, bytes: Int)] = []
        for sizeFolder in sizes {
            guard let files = try? FileManager.default.contentsOfDirectory(at: sizeFolder,
                                                                           includingPropertiesForKeys: Array(keys))
            else { continue }
            for file in files {
                guard file.pathExtension == "kept" else {
                    unlink(file.path)
                    continue
                }
                let values = try? file.resourceValues(forKeys: keys)
                kept.append((file, values?.contentModificationDate ?? .distantPast, values?.fileSize ?? 0))
            }
        }
        var total = 0
        for entry in kept.sorted(by: { $0.date > $1.date }) {
            total += entry.bytes
            if total > budget { unlink(entry.file.path) }
        }
    }

    /// A file's modification time, to the nanosecond; nil if it cannot be read.
    private static func modified(_ path: String) -> timespec? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mtim
    }
}

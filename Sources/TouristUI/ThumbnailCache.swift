import CGtk
import CShims
import Foundation
import GLibSwift

/// The album grid's pictures (a photo's centre square at the grid's size), kept in the cache folder, so an
/// album opened again shows its photos without decoding them again: a photo is decoded once, as it arrives
/// (or the first time its album is opened), and its grid-sized picture, a few kilobytes, is read back after
/// that. It is a cache: a picture that is missing, unreadable, of another size or older than its photo's
/// file (the file was changed or damaged since: its modification time is the picture's) is made again from
/// the photo, and beyond `capacity` the oldest go.
///
/// Everything here runs off the main thread.
final class ThumbnailCache: Sendable {
    let folder: URL
    private let capacity: Int
    /// Where `keep` writes (nil: on the caller's thread).
    private let keeping: BackgroundThread?

    /// - parameter keeping: the thread `keep` encodes and writes pictures on: nobody waits for them, so it should
    ///   run below the threads that decode what is on its way to the screen (nil: `keep` writes before it returns).
    init(folder: URL, capacity: Int = 4000, keeping: BackgroundThread? = nil) {
        self.folder = folder
        self.capacity = max(1, capacity)
        self.keeping = keeping
    }

    /// Where the picture of the photo at `relativePath` (`photos/<pin>/<id>-<tag>.jpg`, unique to one
    /// download) is kept at `side` pixels.
    func file(for relativePath: String, side: Int32) -> URL {
        folder.appendingPathComponent("\(side)", isDirectory: true)
            .appendingPathComponent(relativePath.replacingOccurrences(of: "/", with: "_") + ".thumbnail")
    }

    /// The kept picture, ready to paint at `scale` device pixels per point, if there is a good one of this size for
    /// the photo's file at `photo` as it is now; nil otherwise (then decode the photo). A JPEG is read by libjpeg-turbo
    /// straight into cairo's format (a fifth of what gdk-pixbuf's loader and a conversion cost for one this small);
    /// a PNG (a picture with transparency) through gdk-pixbuf.
    func load(relativePath: String, side: Int32, scale: Int32, photo: String) -> PaintablePicture? {
        let kept = file(for: relativePath, side: side).path
        guard let stamp = Self.modified(photo), let keptStamp = Self.modified(kept),
              keptStamp.tv_sec == stamp.tv_sec, keptStamp.tv_nsec == stamp.tv_nsec,
              let data = FileManager.default.contents(atPath: kept) else {
            return nil
        }
        if data.starts(with: [0xFF, 0xD8]) {
            let surface = data.withUnsafeBytes { bytes in
                bytes.baseAddress.flatMap {
                    vt_jpeg_read_rgb24($0.assumingMemoryBound(to: UInt8.self), bytes.count, side, side)
                }
            }
            return surface.map { PaintablePicture(adopting: $0, scale: scale) }
        }
        guard case .success(let decoded) = ImageDecoding.decode(data, shorterSide: side),
              gdk_pixbuf_get_width(decoded.pixbuf) == side, gdk_pixbuf_get_height(decoded.pixbuf) == side else {
            return nil
        }
        return PaintablePicture(decoded.pixbuf, scale: scale)
    }

    /// Keeps `thumbnail` as the picture of `relativePath`, whose file is at `photo` (JPEG, or PNG if it has
    /// transparency), stamped with the file's modification time. It is written beside its place and renamed
    /// there, so a reader never finds half of one.
    func save(_ thumbnail: DecodedPixbuf, relativePath: String, side: Int32, photo: String) {
        guard let stamp = Self.modified(photo) else { return } // the photo is gone already
        let target = file(for: relativePath, side: side)
        let part = target.appendingPathExtension("\(UUID().uuidString).part") // two tiles may keep the same photo at once
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let opaque = gdk_pixbuf_get_has_alpha(thumbnail.pixbuf) == 0
        let (keys, values) = opaque ? (["quality"], ["90"]) : ([], [])
        var error: UnsafeMutablePointer<GError>?
        let saved = withCStringArray(keys) { keys in
            withCStringArray(values) { values in
                gdk_pixbuf_savev(thumbnail.pixbuf, part.path, opaque ? "jpeg" : "png", Self.mutable(keys),
                                 Self.mutable(values), &error)
            }
        }
        if let error { g_error_free(error) }
        let times = [stamp, stamp] // access and modification time: the photo's
        let stamped = saved != 0 && utimensat(AT_FDCWD, part.path, times, 0) == 0
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

    /// Removes the pictures of the oldest photos beyond `capacity`, and what an interrupted write left. Grows with the
    /// cache (bounded by `capacity`): run it in the background.
    func trim() {
        let keys: [URLResourceKey] = [.contentModificationDateKey]
        guard let sizes = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) else {
            return
        }
        for sizeFolder in sizes {
            guard let files = try? FileManager.default.contentsOfDirectory(at: sizeFolder, includingPropertiesForKeys: keys)
            else { continue }
            var kept: [(file: URL, date: Date)] = []
            for file in files {
                if file.pathExtension == "part" {
                    unlink(file.path)
                } else {
                    let date = (try? file.resourceValues(forKeys: Set(keys)).contentModificationDate) ?? .distantPast
                    kept.append((file, date))
                }
            }
            guard kept.count > capacity else { continue }
            for entry in kept.sorted(by: { $0.date > $1.date }).dropFirst(capacity) { unlink(entry.file.path) }
        }
    }

    /// A file's modification time, to the nanosecond; nil if it cannot be read.
    private static func modified(_ path: String) -> timespec? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mtim
    }

    private static func mutable(_ strings: UnsafeMutablePointer<UnsafePointer<CChar>?>)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        UnsafeMutableRawPointer(strings).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
    }
}

import CGtk
import Foundation
import GLibSwift

/// The album grid's pictures (a photo's centre square at the grid's size), kept in the cache folder, so an
/// album opened again shows its photos without decoding them again: a photo is decoded once, as it arrives
/// (or the first time its album is opened), and its grid-sized picture, a few kilobytes, is read back after
/// that. It is a cache: a picture that is missing, unreadable or of another size is made again from the
/// photo, and beyond `capacity` the oldest go.
///
/// Everything here runs off the main thread.
final class ThumbnailCache: Sendable {
    let folder: URL
    private let capacity: Int

    init(folder: URL, capacity: Int = 4000) {
        self.folder = folder
        self.capacity = max(1, capacity)
    }

    /// Where the picture of the photo at `relativePath` (`photos/<pin>/<id>-<tag>.jpg`, unique to one
    /// download) is kept at `side` pixels.
    func file(for relativePath: String, side: Int32) -> URL {
        folder.appendingPathComponent("\(side)", isDirectory: true)
            .appendingPathComponent(relativePath.replacingOccurrences(of: "/", with: "_") + ".thumbnail")
    }

    /// The kept picture, if there is a good one of this size; nil otherwise (then decode the photo).
    func load(relativePath: String, side: Int32) -> DecodedPixbuf? {
        guard let data = FileManager.default.contents(atPath: file(for: relativePath, side: side).path),
              case .success(let decoded) = ImageDecoding.decode(data, shorterSide: side),
              gdk_pixbuf_get_width(decoded.pixbuf) == side, gdk_pixbuf_get_height(decoded.pixbuf) == side else {
            return nil
        }
        return decoded
    }

    /// Keeps `thumbnail` as the picture of `relativePath` (JPEG, or PNG if it has transparency). It is
    /// written beside its place and renamed there, so a reader never finds half of one.
    func save(_ thumbnail: DecodedPixbuf, relativePath: String, side: Int32) {
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
        if saved == 0 || rename(part.path, target.path) != 0 {
            unlink(part.path) // a full disk costs the next open a decode, nothing more
        }
    }

    /// Removes the oldest pictures beyond `capacity`, and what an interrupted write left. Grows with the
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

    private static func mutable(_ strings: UnsafeMutablePointer<UnsafePointer<CChar>?>)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        UnsafeMutableRawPointer(strings).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What the index records of every photo file to know it unchanged next time.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    /// Modification time in nanoseconds since 1970.
    var modified: Int64
}

/// Which files count as photos, and walking folders for them.
enum PhotoFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "tif", "tiff", "webp", "heic", "heif", "avif",
                                          "dng", "cr2", "cr3", "nef", "arw", "orf", "rw2", "raf", "pef", "srw"]

    static func hasPhotoExtension(_ name: Substring) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    enum Kind { case photo(FileStamp), folder, other, missing }

    /// lstat: a symbolic link is `.other`, never followed, so links cannot loop or lead out of the folders.
    static func kind(ofPath path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            return .folder
        case S_IFREG:
            guard hasPhotoExtension(Substring(path.split(separator: "/").last ?? "")) else { return .other }
            return .photo(stamp(of: info))
        default:
            return .other
        }
    }

    private static func stamp(of info: stat) -> FileStamp {
        #if canImport(Glibc)
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #else
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #endif
        return FileStamp(size: Int64(info.st_size), modified: modified)
    }

    /// Calls `visit` for each photo file under `root`, depth first; hidden names skipped, links not followed,
    /// unreadable folders passed over. `shouldStop` is asked between files so a cancelled scan ends promptly.
    static func walk(_ root: String, shouldStop: () -> Bool, visit: (String, FileStamp) throws -> Void) rethrows {
        var pending = [root]
        while let folder = pending.popLast() {
            if shouldStop() { return }
            // Foundation reads the entries (readdir's records are shorter than a whole `dirent`; copying one overreads).
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let names = entries.filter { !$0.hasPrefix(".") }
            // Sorted so a scan's order, and what a cancelled scan has done, does not depend on the file system.
            for name in names.sorted().reversed() {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                switch kind(ofPath: path) {
                case .folder: pending.append(path)
                case .photo(let stamp):
                    if shouldStop() { return }
                    try visit(path, stamp)
                case .other, .missing: break
                }
            }
        }
    }

    /// True when `path` is `folder` or inside it, and no part of it below `folder` is hidden.
    static func isPath(_ path: String, within folder: String) -> Bool {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        guard path == base || path.hasPrefix(base + "/") else { return false }
        return !path.dropFirst(base.count).split(separator: "/").contains { $0.hasPrefix(".") }
    }
}

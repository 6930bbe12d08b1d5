import Foundation

/// Keeping a cache folder within its bounds: its most recently modified files stay, the rest go. Whatever it deletes
/// can be made again (downloaded or decoded), so a file that cannot be read or deleted is simply passed over.
public enum CacheTrim {
    /// A temporary older than this was left by a killed write, not one in progress.
    static let abandonedTemporaryAge: TimeInterval = 60 * 60

    /// Deletes the files in `folder` (and, with `depth` 2, in its subfolders) beyond the newest `count` files or the
    /// newest `bytes` bytes, by modification time; files `belongs` refuses (an earlier format) go first, and
    /// `WholeFile` temporaries are left to their writer unless abandoned. Reads the whole folder: run it off the
    /// main thread.
    public static func keepNewest(in folder: URL, bytes: Int = .max, count: Int = .max, depth: Int = 1,
                                  belongs: (URL) -> Bool = { _ in true }, now: Date = Date()) {
        var kept: [(file: URL, date: Date, bytes: Int)] = []
        for file in regularFiles(in: folder, depth: max(1, depth)) {
            let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
            let date = values?.contentModificationDate ?? .distantPast
            if WholeFile.isTemporary(file.lastPathComponent) {
                if now.timeIntervalSince(date) > abandonedTemporaryAge { unlink(file.path) }
            } else if !belongs(file) {
                unlink(file.path)
            } else {
                kept.append((file, date, values?.fileSize ?? 0))
            }
        }
        var total = 0
        for (index, entry) in kept.sorted(by: { $0.date > $1.date }).enumerated() {
            total += entry.bytes
            if index >= count || total > bytes { unlink(entry.file.path) }
        }
    }

    private static func regularFiles(in folder: URL, depth: Int) -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .contentModificationDateKey, .fileSizeKey]
        guard let entries = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys)
        else { return [] }
        return entries.flatMap { entry -> [URL] in
            let values = try? entry.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isRegularFile == true { return [entry] }
            if values?.isDirectory == true && depth > 1 { return regularFiles(in: entry, depth: depth - 1) }
            return []
        }
    }
}

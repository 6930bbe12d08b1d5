import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Photo files

extension AppDatabase {
    /// Removes the files no photo names (a kill between a download's rename and its commit leaves them) and the
    /// folders this empties; returns how many files went. Safe beside downloads: each pin's folder is swept in
    /// one short write, atomic with respect to any row naming its files.
    @discardableResult
    public func removeOrphanedPhotoFiles() throws -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: photosFolder.path)) ?? []
        var removed = 0
        for entry in entries {
            removed += try wrapErrors {
                try dbWriter.writeWithoutTransaction { db in try sweep(entry: entry, db) }
            }
        }
        return removed
    }

    /// Sweeps `photos/<entry>` (a pin's folder, or anything stray) against the rows naming files in it.
    private func sweep(entry: String, _ db: Database) throws -> Int {
        let prefix = Self.photosFolderName + "/" + entry
        var named: Set<String>
        if let pinId = Int64(entry) {
            named = try Photo.select(Photo.Columns.filePath, as: String.self)
                .filter(Photo.Columns.pinId == pinId && Photo.Columns.filePath != nil)
                .fetchSet(db)
        } else {
            named = try String.fetchSet(db, sql: """
                SELECT file_path FROM photo WHERE file_path = ? OR substr(file_path, 1, ?) = ?
                """, arguments: [prefix, prefix.count + 1, prefix + "/"])
        }
        // Files of a deletion that can still be undone are not orphans.
        named.formUnion(try String.fetchAll(db, sql: """
            SELECT path FROM pending_file_deletion WHERE held_by IS NOT NULL AND substr(path, 1, ?) = ?
            """, arguments: [prefix.count + 1, prefix + "/"]))
        let url = photosFolder.appendingPathComponent(entry)
        guard isDirectory(url) else {
            return !named.contains(prefix) && unlink(url.path) == 0 ? 1 : 0
        }
        let removed = removeFiles(in: url, relativePath: prefix, keeping: named)
        rmdir(url.path) // fails, harmlessly, unless the folder is now empty
        return removed
    }

    /// Moves staged downloads into the photos folder in the write that records them, so a file enters only with
    /// the row naming it; one commit takes a burst of downloads.
    /// - returns: per photo, its new path (a fresh tag each download, so no two runs share one), or
    ///   `.photoNotFound` (the staged file stays its owner's), `.notWritable` or `.diskFull`; a failed write throws.
    public func adoptPhotoFiles(_ files: [StagedPhotoFile]) throws -> [Result<String, StoreError>] {
        var placed: [URL] = []
        do {
            return try write { db in
                try files.map { staged -> Result<String, StoreError> in
                    guard let photo = try Photo.fetchOne(db, id: staged.photoID) else {
                        return .failure(.photoNotFound(id: staged.photoID))
                    }
                    let relative = Self.newPhotoPath(pinId: photo.pinId, flickrId: photo.flickrId,
                                                     fileExtension: staged.fileExtension)
                    let destination = photoFileURL(relativePath: relative)
                    let folder = destination.deletingLastPathComponent()
                    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    guard rename(staged.file.path, destination.path) == 0 else {
                        return .failure(errno == ENOSPC ? .diskFull(folder: folder) : .notWritable(folder: folder))
                    }
                    placed.append(destination)
                    try Photo.filter(id: staged.photoID).updateAll(db, Photo.Columns.filePath.set(to: relative))
                    return .success(relative)
                }
            }
        } catch {
            // The write did not commit: no file may stay where no row names it.
            for url in placed { unlink(url.path) }
            throw error
        }
    }

    /// `photos/<pin>/<flickr id>-<random tag>.<ext>`, with anything unusual in the id or extension replaced.
    static func newPhotoPath(pinId: Int64, flickrId: String, fileExtension: String) -> String {
        func safe(_ text: String, fallback: String) -> String {
            let cleaned = String(text.unicodeScalars.prefix(64).map { scalar -> Character in
                scalar.isASCII && CharacterSet.alphanumerics.contains(scalar) ? Character(scalar) : "_"
            })
            return cleaned.isEmpty ? fallback : cleaned
        }
        let tag = String(UInt32.random(in: .min ... .max), radix: 16)
        return "\(photosFolderName)/\(pinId)/\(safe(flickrId, fallback: "photo"))-\(tag).\(safe(fileExtension, fallback: "img"))"
    }

    /// Throws unless `path` is a plain relative path inside the photos folder, like `photos/7/1_a.jpg`.
    static func validatePhotoPath(_ path: String) throws {
        guard isPhotoPath(path) else { throw StoreError.invalidPhotoPath(path) }
    }

    /// Public for the fuzzer. Checked as bytes, as the kernel reads a path: as Characters a combining mark
    /// glued to a "/" or a NUL hid them.
    public static func isPhotoPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard !bytes.contains(0) else { return false }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard components.count >= 2, components[0].elementsEqual(photosFolderName.utf8) else { return false }
        return components.allSatisfy { !$0.isEmpty && !$0.elementsEqual([0x2E]) && !$0.elementsEqual([0x2E, 0x2E]) }
    }

    /// Unlinks the files listed in `pending_file_deletion` and forgets them.
    ///
    /// Paths a photo still names, or that point outside the photos folder, are forgotten without
    /// touching the disk. Paths that fail to unlink stay listed, so the next write or start-up retries.
    func deleteReleasedFiles(_ db: Database) {
        do {
            let released = try String.fetchAll(
                db, sql: "SELECT path FROM pending_file_deletion WHERE held_by IS NULL")
            guard !released.isEmpty else { return }
            let stillNamed = try Photo
                .select(Photo.Columns.filePath, as: String.self)
                .filter(released.contains(Photo.Columns.filePath))
                .fetchSet(db)
            let done = released.filter { path in
                guard Self.isPhotoPath(path), !stillNamed.contains(path) else { return true }
                return unlinkFile(photoFileURL(relativePath: path))
            }
            guard !done.isEmpty else { return }
            try db.inTransaction {
                try db.execute(literal: "DELETE FROM pending_file_deletion WHERE path IN \(done)")
                return .commit
            }
        } catch {
            // The committed write stands; the listed paths stay and are retried by the next write.
        }
    }

    /// Returns true when the file is gone, whether or not it was there.
    private func unlinkFile(_ url: URL) -> Bool {
        unlink(url.path) == 0 || errno == ENOENT || errno == ENOTDIR
    }

    private func removeFiles(in folder: URL, relativePath: String, keeping named: Set<String>) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names {
            let url = folder.appendingPathComponent(name)
            let relative = relativePath + "/" + name
            if isDirectory(url) {
                removed += removeFiles(in: url, relativePath: relative, keeping: named)
                // Fails, harmlessly, unless the folder is now empty.
                rmdir(url.path)
            } else if !named.contains(relative), unlink(url.path) == 0 {
                removed += 1
            }
        }
        return removed
    }

    // lstat, so a symbolic link to a folder counts as a file and is never followed.
    private func isDirectory(_ url: URL) -> Bool {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}

/// A downloaded file in the staging folder, for the photo it belongs to.
public struct StagedPhotoFile: Sendable {
    public var photoID: Int64
    public var file: URL
    public var fileExtension: String

    public init(photoID: Int64, file: URL, fileExtension: String) {
        self.photoID = photoID
        self.file = file
        self.fileExtension = fileExtension
    }
}

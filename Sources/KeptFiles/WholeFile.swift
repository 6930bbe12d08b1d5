import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing a file whole: the bytes go to a hidden temporary beside it, which is then renamed into place, so a reader
/// finds the old file, the new one or none, never half of one. `Data.write(to:options: .atomic)` would always flush to
/// the disk (`fsync`), which a downloaded photo, map tile or grid picture does not need: a damaged one is made again.
public enum WholeFile {
    /// Writes `bytes` to `path` (its folder must exist) with exactly `permissions`, and `modified` as its access and
    /// modification time if given; flushed to the disk first if `durable` (a setting the user typed).
    /// - parameter replacing: false to keep a file already at `path` (then the error is EEXIST).
    /// - throws: the failing call's error; the temporary is gone then, and whatever was at `path` is untouched.
    public static func write(_ bytes: some ContiguousBytes, to path: String, permissions: mode_t = 0o600,
                             modified: timespec? = nil, durable: Bool = false,
                             replacing: Bool = true) throws(POSIXError) {
        let temporary = temporaryPath(for: path)
        try create(bytes, at: temporary, permissions: permissions, durable: durable)
        var failure: Int32 = 0
        if let modified, utimensat(AT_FDCWD, temporary, [modified, modified], 0) != 0 { failure = errno }
        if failure == 0 {
            if replacing {
                if rename(temporary, path) != 0 { failure = errno }
            } else if link(temporary, path) != 0 { // link(2) fails when the name exists, where rename(2) replaces it
                failure = errno
            }
        }
        if failure != 0 || !replacing { unlink(temporary) }
        if failure != 0 { throw POSIXError(failure) }
    }

    /// Whether `name` is one of `write`'s temporaries (a write in progress, or one a killed process left).
    public static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
    }

    private static let temporarySuffix = ".part"

    /// Hidden, so a folder's listing skips it; unique, so two writers of one file never share a temporary.
    private static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).\(UUID().uuidString)\(temporarySuffix)"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Creates `path` (it must not exist) and writes `bytes` whole; on failure nothing is left at `path`.
    private static func create(_ bytes: some ContiguousBytes, at path: String, permissions: mode_t,
                               durable: Bool) throws(POSIXError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw POSIXError(errno) }
        var failure: Int32 = 0
        // Exactly these permissions, whatever the umask took away.
        if fchmod(descriptor, permissions) != 0 { failure = errno }
        if failure == 0 {
            failure = bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = writeSome(descriptor, buffer.baseAddress! + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    written += count
                }
                return 0
            }
        }
        if failure == 0 && durable && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 && errno != EINTR { failure = errno }
        if failure != 0 {
            unlink(path)
            throw POSIXError(failure)
        }
    }
}

/// write(2), which `WholeFile.write` hides inside the type.
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

extension POSIXError {
    /// The error `code` names (EIO if it names none).
    init(_ code: Int32) {
        self.init(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}

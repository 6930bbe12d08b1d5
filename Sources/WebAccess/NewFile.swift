import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file written whole, with the failing call's errno; not `Data.write(to:)`, which always `fsync`s, and a
/// photo or tile that a power cut damages is simply fetched again.
public enum NewFile {
    /// Creates `path` (it must not exist) with `permissions`, writes `bytes` whole, and flushes it to the
    /// disk first if `durable`. On failure nothing is left at `path`, and the error is the failing call's.
    public static func create(_ bytes: some ContiguousBytes, to path: String, permissions: mode_t = 0o600,
                             durable: Bool = false) throws(POSIXError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw POSIXError(errno) }
        var failure: Int32 = 0
        // Exactly these permissions, whatever the umask took away.
        if fchmod(descriptor, permissions) != 0 { failure = errno }
        if failure == 0 {
            failure = bytes.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
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

extension POSIXError {
    /// The error `code` names (EIO if it names none).
    public init(_ code: Int32) {
        self.init(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}

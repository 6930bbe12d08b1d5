import Foundation
import GRDB
import Translations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the store could not read or save, worded so a person knows what to do next.
public enum StoreError: Error, LocalizedError, Equatable, Sendable {
    /// The disk holding `folder` has no space left.
    case diskFull(folder: URL)
    /// Virtual Tourist may not write to `folder` (permissions, read-only disk).
    case notWritable(folder: URL)
    /// The database file is damaged or is not a database.
    case corrupt(databaseURL: URL)
    /// The database file could not be opened at all.
    case cannotOpen(databaseURL: URL)
    /// Another program holds a lock on the database.
    case busy(databaseURL: URL)
    /// The pin was deleted in the meantime.
    case pinNotFound(id: Int64)
    /// The pin was moved in the meantime (an album searched for its old place is not saved).
    case pinMoved(id: Int64)
    /// The photo was deleted in the meantime.
    case photoNotFound(id: Int64)
    /// The pin's album already holds this Flickr photo.
    case duplicatePhoto(pinId: Int64, flickrId: String)
    /// A photo file path that is not inside the photos folder.
    case invalidPhotoPath(String)
    /// Anything else; `reason` is the underlying error's description.
    case other(reason: String)

    public var errorDescription: String? {
        switch self {
        case .diskFull(let folder):
            // Translators: %@ is a folder, e.g. "/home/ana/.local/share/virtual-tourist".
            return formatted(tr("Virtual Tourist could not save to %@: the disk is full. Free some space and try again."), folder.path)
        case .notWritable(let folder):
            // Translators: %@ is a folder, e.g. "/home/ana/.local/share/virtual-tourist".
            return formatted(tr("Virtual Tourist is not allowed to write to %@. Check that the folder and its files belong to you and that the disk is not read-only, then try again."), folder.path)
        case .corrupt(let url):
            // Translators: %@ is the database file, e.g. "/home/ana/.local/share/virtual-tourist/VirtualTourist.sqlite".
            return formatted(tr("Virtual Tourist's database at %@ is damaged. Quit Virtual Tourist, move that file somewhere else (your pins and albums start empty), and open Virtual Tourist again."), url.path)
        case .cannotOpen(let url):
            // Translators: %@ is the database file, e.g. "/home/ana/.local/share/virtual-tourist/VirtualTourist.sqlite".
            return formatted(tr("Virtual Tourist could not open its database at %@. Check that the folder exists and that you may write to it, then try again."), url.path)
        case .busy(let url):
            // Translators: %@ is the database file, e.g. "/home/ana/.local/share/virtual-tourist/VirtualTourist.sqlite".
            return formatted(tr("Virtual Tourist's database at %@ is in use by another program. Close other copies of Virtual Tourist and try again."), url.path)
        case .pinNotFound:
            return tr("This pin no longer exists. It may have been deleted in the meantime.")
        case .pinMoved:
            return tr("This pin was moved in the meantime; its album follows it to the new place.")
        case .photoNotFound:
            return tr("This photo no longer exists. It may have been removed from the album in the meantime.")
        case .duplicatePhoto:
            return tr("This photo is already in the pin's album.")
        case .invalidPhotoPath(let path):
            // Translators: %@ is a file's path.
            return formatted(tr("Virtual Tourist refused to use the photo file “%@” because it is not inside its photos folder."), path)
        case .other(let reason):
            // Translators: %@ is the underlying error, often in English from the database library.
            return formatted(tr("Virtual Tourist could not read or save its data: %@"), reason)
        }
    }
}

extension StoreError {
    /// Translates a GRDB, SQLite or file-system error into a `StoreError`.
    ///
    /// - parameter folder: the folder being written to (usually the data folder).
    /// - parameter databaseURL: the database file, or nil for an in-memory database.
    init(_ error: any Error, folder: URL, databaseURL: URL?) {
        if let storeError = error as? StoreError {
            self = storeError
            return
        }
        let fileURL = databaseURL ?? folder
        if let error = error as? DatabaseError {
            switch error.resultCode.primaryResultCode {
            case .SQLITE_FULL:
                self = .diskFull(folder: folder)
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
                self = .notWritable(folder: folder)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                self = .corrupt(databaseURL: fileURL)
            case .SQLITE_CANTOPEN:
                self = .cannotOpen(databaseURL: fileURL)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                self = .busy(databaseURL: fileURL)
            default:
                self = .other(reason: error.message ?? "\(error)")
            }
            return
        }
        let nsError = error as NSError
        if Self.isDiskFull(nsError) {
            self = .diskFull(folder: folder)
        } else if Self.isPermissionDenied(nsError) {
            self = .notWritable(folder: folder)
        } else {
            self = .other(reason: error.localizedDescription)
        }
    }

    private static func isDiskFull(_ error: NSError) -> Bool {
        [ENOSPC, EDQUOT].contains(posixCode(of: error))
            || (error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileWriteOutOfSpace.rawValue)
    }

    private static func isPermissionDenied(_ error: NSError) -> Bool {
        let cocoaCodes = [CocoaError.fileWriteNoPermission, .fileWriteVolumeReadOnly].map(\.rawValue)
        return [EACCES, EPERM, EROFS].contains(posixCode(of: error))
            || (error.domain == NSCocoaErrorDomain && cocoaCodes.contains(error.code))
    }

    // Foundation wraps errno in a Cocoa error on some paths, as its underlying error.
    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        return (error.userInfo[NSUnderlyingErrorKey] as? NSError).flatMap(posixCode(of:))
    }
}

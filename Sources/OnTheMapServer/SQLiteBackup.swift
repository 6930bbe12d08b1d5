import Foundation
import GRDB

/// What `backUpSQLiteDatabase` wrote, counted in the copy itself.
public struct SQLiteBackupSummary: Sendable, Equatable {
    /// The backup file, as an absolute path.
    public var path: String
    public var accounts: Int
    public var locations: Int
}

public enum SQLiteBackupError: Error, CustomStringConvertible, Equatable {
    case missingDatabase(String)
    case destinationExists(String)
    case destinationIsTheDatabase(String)
    case failed(database: String, destination: String, reason: String)

    public var description: String {
        switch self {
        case .missingDatabase(let path):
            "No database at \(path): give the file the server runs on with --database. Nothing was written."
        case .destinationExists(let path):
            "\(path) already exists: choose another file, or add --force to replace it."
        case .destinationIsTheDatabase(let path):
            "\(path) is the database itself: write the backup to another file."
        case .failed(let database, let destination, let reason):
            "Cannot back up \(database) to \(destination): \(reason). Nothing was written."
        }
    }
}

/// Copies the On the Map database at `databasePath` to `destinationPath` with SQLite's online backup API:
/// one consistent snapshot, taken while servers keep reading and writing the file (WAL readers don't block).
///
/// The copy is written to a temporary file beside the destination and renamed into place, so the
/// destination is only ever absent, its old self, or the whole backup. A missing database is an error,
/// never a new empty database.
public func backUpSQLiteDatabase(at databasePath: String, to destinationPath: String,
                                 replacing: Bool = false) throws -> SQLiteBackupSummary {
    let destination = URL(fileURLWithPath: destinationPath).standardizedFileURL
    guard FileManager.default.fileExists(atPath: databasePath) else {
        throw SQLiteBackupError.missingDatabase(databasePath)
    }
    guard URL(fileURLWithPath: databasePath).resolvingSymlinksInPath().path
            != destination.resolvingSymlinksInPath().path else {
        throw SQLiteBackupError.destinationIsTheDatabase(destination.path)
    }
    guard replacing || !FileManager.default.fileExists(atPath: destination.path) else {
        throw SQLiteBackupError.destinationExists(destination.path)
    }
    func failure(_ reason: String) -> SQLiteBackupError {
        .failed(database: databasePath, destination: destination.path, reason: reason)
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: destination.deletingLastPathComponent().path, isDirectory: &isFolder),
          isFolder.boolValue else {
        throw failure("the folder \(destination.deletingLastPathComponent().path) does not exist")
    }

    let partial = destination.deletingLastPathComponent()
        .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
    var renamed = false
    defer {
        if !renamed {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(atPath: partial.path + "-journal")
        }
    }

    let counts: (accounts: Int, locations: Int)
    do {
        // Not read-only: a read-only connection cannot remove the -wal and -shm files it adds beside a stopped
        // server's database. The existence check above keeps this from creating a database.
        var sourceConfiguration = Configuration()
        sourceConfiguration.busyMode = .timeout(10) // a server's checkpoint can hold the file for a moment
        let source = try DatabaseQueue(path: databasePath, configuration: sourceConfiguration)
        // A backup holds password hashes: readable by its owner only, as the server's own database is.
        guard FileManager.default.createFile(atPath: partial.path, contents: nil,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw failure("cannot create a file in \(destination.deletingLastPathComponent().path)")
        }
        let copy = try DatabaseQueue(path: partial.path)
        try source.backup(to: copy)
        try source.close()
        counts = try copy.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account") ?? 0,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM student_location") ?? 0)
        }
        try copy.close() // the default journal mode syncs each commit, so the file is on disk now
    } catch let error as DatabaseError {
        let reason = error.resultCode == .SQLITE_ERROR && (error.message ?? "").contains("no such table")
            ? "it is not an On the Map database (\(error.message ?? ""))"
            : (error.message ?? "\(error)")
        throw failure(reason)
    }

    // Checked again: a file may have appeared while the copy was written.
    guard replacing || !FileManager.default.fileExists(atPath: destination.path) else {
        throw SQLiteBackupError.destinationExists(destination.path)
    }
    guard rename(partial.path, destination.path) == 0 else {
        throw failure("cannot rename the copy into place: \(String(cString: strerror(errno)))")
    }
    renamed = true
    syncFolder(destination.deletingLastPathComponent().path)
    return SQLiteBackupSummary(path: destination.path, accounts: counts.accounts, locations: counts.locations)
}

/// A rename is on disk only once its folder is synced; without that a power cut can lose the backup.
private func syncFolder(_ path: String) {
    let folder = open(path, O_RDONLY | O_DIRECTORY)
    guard folder >= 0 else { return }
    fsync(folder)
    close(folder)
}

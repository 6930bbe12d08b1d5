import ArgumentParser
import Foundation
import OnTheMapServer

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the SQLite database to a file while the server runs (SQLite's online backup).",
        discussion: "Restore: stop the server, remove the database's -wal and -shm files, copy the backup over "
            + "the database file, start the server. For PostgreSQL, use pg_dump.")

    @OptionGroup var storage: StorageOptions

    @Option(help: ArgumentHelp("The backup file to write.", valueName: "file"))
    var to: String

    @Flag(help: "Replace the backup file if it already exists.")
    var force = false

    func run() async throws {
        switch try storage.location() {
        case .postgres:
            throw PostgresBackupRefused(database: storage.database ?? environment("DATABASE") ?? "", file: to)
        case .sqlite(let path):
            let written = try backUpSQLiteDatabase(at: path, to: to, replacing: force)
            print("Wrote \(written.path): \(counted(written.accounts, "account")), \(counted(written.locations, "location")).")
        }
    }
}

/// "1 account", "2 accounts".
private func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// `backup` copies SQLite files; PostgreSQL has its own consistent dump, which this names ready to run.
struct PostgresBackupRefused: Error, CustomStringConvertible {
    var database: String
    var file: String

    var description: String {
        // The URL as given, but without its password: this message may be pasted anywhere.
        var url = URLComponents(string: database)
        url?.password = nil
        let shownURL = url?.string ?? "postgres://USER@HOST:PORT/DATABASE"
        return """
            backup copies SQLite databases only; for PostgreSQL use pg_dump (the password from PGPASSWORD or ~/.pgpass):
              pg_dump --format=custom --file=\(file) '\(shownURL)'
            and restore with: pg_restore --clean --if-exists --dbname='\(shownURL)' \(file)
            """
    }
}

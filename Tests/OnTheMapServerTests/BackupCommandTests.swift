import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// `on-the-map-server backup`, run as a separate process beside a running server on the same SQLite file,
/// and the restore the README gives, done step by step.
final class BackupCommandTests: ServerTestCase {
    private struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The built executable, beside the test bundle (as `CommandLineTests` finds it).
    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("on-the-map-server")
    }

    private func run(_ executable: URL, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   errors: String(decoding: errors, as: UTF8.self))
    }

    private func backup(_ arguments: [String]) throws -> Run {
        try run(Self.executable, ["backup", "--log-level", "error"] + arguments)
    }

    /// The database's folder (made for this test); backups go beside the database.
    private var folder: URL { URL(fileURLWithPath: databaseArgument).deletingLastPathComponent() }

    private func filesInFolder() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func testABackupTakenWhileTheServerRunsRestoresAccountsAndLocations() async throws {
        let ada = try await loggedInStudent("ada@example.org")
        let posted = try await client.post(.sample(key: ada.key, mapString: "Backed up, France"), sessionId: ada.sessionId)
        XCTAssertEqual(posted.status, 200, posted.text)
        let backupFile = folder.appendingPathComponent("nightly.sqlite")

        let written = try backup(["--database", databaseArgument, "--to", backupFile.path])
        XCTAssertEqual(written.status, 0, written.errors)
        XCTAssertEqual(written.output, "Wrote \(backupFile.path): 1 account, 1 location.\n")
        let later = try await client.post(.sample(key: ada.key, mapString: "After the backup"), sessionId: ada.sessionId)
        XCTAssertEqual(later.status, 200, later.text)
        XCTAssertFalse(try filesInFolder().contains { $0.hasSuffix(".partial") }, "no temporary file is left")
        let permissions = try FileManager.default.attributesOfItem(atPath: backupFile.path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600, "password hashes are readable by the backup's owner only")

        // The README's restore: stop the server, remove -wal and -shm, copy the backup over the database, start.
        await server.stop()
        server = nil
        for leftover in [databaseArgument + "-wal", databaseArgument + "-shm"] {
            XCTAssertEqual(try run(URL(fileURLWithPath: "/bin/rm"), ["-f", leftover]).status, 0)
        }
        let copied = try run(URL(fileURLWithPath: "/bin/cp"), [backupFile.path, databaseArgument])
        XCTAssertEqual(copied.status, 0, copied.errors)
        try await restart()

        let session = try await client.session("ada@example.org")
        XCTAssertEqual(session.key, ada.key)
        let restored = try await client.list()
        XCTAssertEqual(restored.map(\.mapString), ["Backed up, France"], "the backup's location, not the later one")
        XCTAssertEqual(restored.first?.uniqueKey, ada.key)
    }

    func testBackupRefusesToReplaceAFileUnlessForced() async throws {
        try await server.addAccount(email: "ada@example.org")
        let backupFile = folder.appendingPathComponent("nightly.sqlite")
        try Data("an older backup".utf8).write(to: backupFile)

        let refused = try backup(["--database", databaseArgument, "--to", backupFile.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errors.contains("already exists") && refused.errors.contains("--force"), refused.errors)
        XCTAssertEqual(try Data(contentsOf: backupFile), Data("an older backup".utf8), "the file is left alone")

        let forced = try backup(["--database", databaseArgument, "--to", backupFile.path, "--force"])
        XCTAssertEqual(forced.status, 0, forced.errors)
        XCTAssertTrue(forced.output.contains("1 account, 0 locations"), forced.output)
        XCTAssertEqual(try Data(contentsOf: backupFile).prefix(16), Data("SQLite format 3\0".utf8))
        XCTAssertFalse(try filesInFolder().contains { $0.hasSuffix(".partial") }, "no temporary file is left")
    }

    func testBackupOfAPostgreSQLDatabaseNamesPgDumpWithoutThePassword() throws {
        let dumpFile = folder.appendingPathComponent("onthemap.dump")
        let refused = try backup(["--database", "postgres://onthemap:SECRET@db.internal:5432/onthemap?sslmode=require",
                                  "--to", dumpFile.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.errors.contains(
            "pg_dump --format=custom --file=\(dumpFile.path) 'postgres://onthemap@db.internal:5432/onthemap?sslmode=require'"),
            refused.errors)
        XCTAssertTrue(refused.errors.contains("pg_restore"), refused.errors)
        XCTAssertFalse(refused.errors.contains("SECRET"), "the password is not repeated")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dumpFile.path))
    }

    func testBackupOfAMissingDatabaseFailsAndCreatesNothing() throws {
        let missing = folder.appendingPathComponent("no-such.sqlite")
        let backupFile = folder.appendingPathComponent("nightly.sqlite")
        let before = try filesInFolder()

        let failed = try backup(["--database", missing.path, "--to", backupFile.path])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertTrue(failed.errors.contains("No database at \(missing.path)"), failed.errors)
        XCTAssertEqual(try filesInFolder(), before, "neither an empty database nor a backup was created")
    }
}

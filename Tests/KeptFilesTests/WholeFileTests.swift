import Foundation
import KeptFiles
import XCTest

final class WholeFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("WholeFileTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testAFileIsWrittenWholeWithExactlyItsPermissions() throws {
        let path = folder.appendingPathComponent("photo.jpg").path
        let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
        let mask = umask(0o077) // a umask that would take the group's and others' bits away
        defer { umask(mask) }

        try WholeFile.write(bytes, to: path, permissions: 0o644)
        try WholeFile.write(Data("key".utf8), to: path + ".key", permissions: 0o600, durable: true)

        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        let key = try FileManager.default.attributesOfItem(atPath: path + ".key")
        XCTAssertEqual((key[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(FileManager.default.contents(atPath: path + ".key"), Data("key".utf8))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
                       ["photo.jpg", "photo.jpg.key"])
    }

    func testAWriteReplacesTheOldFileAndCanCarryAModificationTime() throws {
        let path = folder.appendingPathComponent("tile.png").path
        try WholeFile.write(Data("old".utf8), to: path)
        try WholeFile.write(Data("new".utf8), to: path, modified: timespec(tv_sec: 1_000_000, tv_nsec: 5))

        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("new".utf8))
        var status = stat()
        XCTAssertEqual(stat(path, &status), 0)
        XCTAssertEqual(status.st_mtim.tv_sec, 1_000_000)
        XCTAssertEqual(status.st_mtim.tv_nsec, 5)
    }

    func testAnExistingFileIsNeverOverwrittenWhenNotReplacing() throws {
        let path = folder.appendingPathComponent("taken").path
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))

        XCTAssertThrowsError(try WholeFile.write(Data("second".utf8), to: path, replacing: false)) { error in
            XCTAssertEqual((error as? POSIXError)?.code, .EEXIST)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("first".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["taken"])
    }

    func testAFailedWriteSaysWhyAndLeavesNoTemporary() throws {
        let missing = folder.appendingPathComponent("gone/photo.jpg").path
        XCTAssertThrowsError(try WholeFile.write(Data("x".utf8), to: missing)) { error in
            XCTAssertEqual((error as? POSIXError)?.code, .ENOENT)
        }
        // A write refused half-way (a file-size limit here; a full disk the same): no half-written file stays.
        let partial = folder.appendingPathComponent("partial.jpg").path
        let fileSize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        let ignored = signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(), small = rlimit(rlim_cur: 64 * 1024, rlim_max: 0)
        getrlimit(fileSize, &limit)
        small.rlim_max = limit.rlim_max
        XCTAssertEqual(setrlimit(fileSize, &small), 0)
        XCTAssertThrowsError(try WholeFile.write(Data(count: 300_000), to: partial)) { error in
            XCTAssertEqual((error as? POSIXError)?.code, .EFBIG)
        }
        setrlimit(fileSize, &limit)
        signal(SIGXFSZ, ignored)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}

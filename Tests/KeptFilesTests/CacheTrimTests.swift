import Foundation
import KeptFiles
import XCTest

final class CacheTrimTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("CacheTrimTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A file of `bytes` bytes at `name`, last modified `age` seconds ago.
    private func file(_ name: String, bytes: Int = 10, age: TimeInterval) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(count: bytes).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)],
                                              ofItemAtPath: url.path)
    }

    private func remaining() -> Set<String> {
        let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return Set(names.filter { name in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
            return !isFolder.boolValue
        })
    }

    func testTheNewestFilesWithinTheByteBudgetStay() throws {
        try file("64/a.kept", bytes: 100, age: 40)
        try file("64/b.kept", bytes: 100, age: 30)
        try file("128/c.kept", bytes: 100, age: 20)
        try file("128/d.kept", bytes: 100, age: 10)

        CacheTrim.keepNewest(in: folder, bytes: 250, depth: 2)

        XCTAssertEqual(remaining(), ["128/c.kept", "128/d.kept"])
    }

    func testTheNewestCountStayAndFilesOfAnotherKindGo() throws {
        try file("a.jpg", age: 30)
        try file("b.jpg", age: 20)
        try file("c.jpg", age: 10)
        try file("old-format.bin", age: 1)

        CacheTrim.keepNewest(in: folder, count: 2, belongs: { $0.pathExtension == "jpg" })

        XCTAssertEqual(remaining(), ["b.jpg", "c.jpg"])
    }

    func testAWriteInProgressStaysAndAnAbandonedOneGoes() throws {
        try file("a.jpg", age: 10)
        try file(".a.jpg.1.part", age: 5)
        try file(".b.jpg.2.part", age: 2 * 60 * 60)

        CacheTrim.keepNewest(in: folder, count: 1)

        XCTAssertEqual(remaining(), ["a.jpg", ".a.jpg.1.part"])
    }
}

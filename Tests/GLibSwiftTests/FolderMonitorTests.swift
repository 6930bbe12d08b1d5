import Foundation
import GLibSwift
import XCTest

/// FolderMonitor on real folders (GIO's inotify monitors), the main loop pumped by hand.
final class FolderMonitorTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folder-monitor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/old", withIntermediateDirectories: true)
        MainActor.assumeIsolated { MainLoopBridge.attach() } // the walk of a folder moved in reports back on the main actor
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    @MainActor
    private static func makeMonitor(_ batches: Box, root: String) -> FolderMonitor {
        FolderMonitor(folders: FolderMonitor.folders(under: [root]), quietMilliseconds: 200) { batches.items.append($0) }
    }

    /// Waits for the next batch (and then a little more, so that a batch split in two would show).
    @MainActor
    private static func nextBatch(_ batches: Box, after count: Int) -> [String]? {
        pump(until: { batches.items.count > count }, seconds: 5)
        pump(until: { false }, seconds: 0.4)
        return batches.items.count > count ? batches.items[count...].flatMap { $0 } : nil
    }

    func testCreatedChangedDeletedAndRenamedFilesArriveAsBatches() throws {
        let root = self.root
        try MainActor.assumeIsolated {
            let batches = Box()
            let monitor = Self.makeMonitor(batches, root: root)
            XCTAssertEqual(Set(monitor.watchedFolders), [root, root + "/old"])

            // Given a watched folder, when two photos are written in quick succession, then one batch names both.
            try Data("one".utf8).write(to: URL(fileURLWithPath: root + "/a.jpg"))
            try Data("two".utf8).write(to: URL(fileURLWithPath: root + "/old/b.jpg"))
            XCTAssertEqual(Set(Self.nextBatch(batches, after: 0) ?? []), [root + "/a.jpg", root + "/old/b.jpg"])
            XCTAssertEqual(batches.items.count, 1, "changes close together arrive as one batch")

            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/a.jpg"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more".utf8))
            try handle.close()
            XCTAssertEqual(Self.nextBatch(batches, after: 1), [root + "/a.jpg"])

            XCTAssertEqual(rename(root + "/a.jpg", root + "/c.jpg"), 0)
            XCTAssertEqual(Set(Self.nextBatch(batches, after: 2) ?? []), [root + "/a.jpg", root + "/c.jpg"],
                           "a rename names the old path and the new one")

            try FileManager.default.removeItem(atPath: root + "/old/b.jpg")
            XCTAssertEqual(Self.nextBatch(batches, after: 3), [root + "/old/b.jpg"])
        }
    }

    func testAFolderMadeInsideIsWatchedAndOneDeletedIsNot() throws {
        let root = self.root
        try MainActor.assumeIsolated {
            let batches = Box()
            let monitor = Self.makeMonitor(batches, root: root)

            try FileManager.default.createDirectory(atPath: root + "/new", withIntermediateDirectories: false)
            XCTAssertEqual(Self.nextBatch(batches, after: 0), [root + "/new"])
            XCTAssertTrue(monitor.watchedFolders.contains(root + "/new"))

            try Data("photo".utf8).write(to: URL(fileURLWithPath: root + "/new/d.jpg"))
            XCTAssertEqual(Self.nextBatch(batches, after: 1), [root + "/new/d.jpg"], "a file in the new folder is seen")

            try FileManager.default.removeItem(atPath: root + "/new")
            XCTAssertTrue(Set(Self.nextBatch(batches, after: 2) ?? []).contains(root + "/new"))
            XCTAssertFalse(monitor.watchedFolders.contains(root + "/new"), "a deleted folder's monitor goes")
        }
    }

    func testAFolderMovedInIsWatchedWithTheFoldersInside() throws {
        let root = self.root
        try MainActor.assumeIsolated {
            let outside = root + "-outside"
            try FileManager.default.createDirectory(atPath: outside + "/trip/day", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: outside) }
            let batches = Box()
            let monitor = Self.makeMonitor(batches, root: root)

            XCTAssertEqual(rename(outside + "/trip", root + "/trip"), 0)
            XCTAssertEqual(Self.nextBatch(batches, after: 0), [root + "/trip"])
            pump(until: { monitor.watchedFolders.contains(root + "/trip/day") })
            try Data("photo".utf8).write(to: URL(fileURLWithPath: root + "/trip/day/e.jpg"))
            XCTAssertEqual(Self.nextBatch(batches, after: 1), [root + "/trip/day/e.jpg"])
        }
    }

    func testNoBatchArrivesAfterStopNotEvenOneWaiting() throws {
        let root = self.root
        try MainActor.assumeIsolated {
            let batches = Box()
            let monitor = Self.makeMonitor(batches, root: root)
            try Data("one".utf8).write(to: URL(fileURLWithPath: root + "/a.jpg"))
            pump(until: { false }, seconds: 0.05) // the event is seen; its batch waits for quiet
            monitor.stop()
            XCTAssertEqual(monitor.watchedFolders, [])
            try Data("two".utf8).write(to: URL(fileURLWithPath: root + "/b.jpg"))
            pump(until: { false }, seconds: 0.8)
            XCTAssertEqual(batches.items.count, 0)
        }
    }

    func testManyFoldersAreWatchedOverSeveralMainLoopTurns() throws {
        let folders = (0..<150).map { root + "/day-\($0)" }
        for folder in folders { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        MainActor.assumeIsolated {
            let monitor = FolderMonitor(folders: folders) { _ in }
            // A turn's worth at once, so no single turn of the main loop pays for them all.
            XCTAssertEqual(monitor.watchedFolders.count, FolderMonitor.foldersPerTurn)
            pump(until: { monitor.watchedFolders.count == folders.count }, seconds: 5)
            XCTAssertEqual(Set(monitor.watchedFolders), Set(folders))
            monitor.stop()
        }
    }

    func testFoldersUnderLeavesOutHiddenFoldersAndLinksAndStopsAtTheLimit() throws {
        let manager = FileManager.default
        for folder in ["a/b", "c", ".hidden/d"] {
            try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try manager.createSymbolicLink(atPath: root + "/loop", withDestinationPath: root)
        XCTAssertEqual(FolderMonitor.folders(under: [root]), [root, root + "/a", root + "/a/b", root + "/c", root + "/old"])
        XCTAssertEqual(FolderMonitor.folders(under: [root], limit: 2), [root, root + "/a"])
        XCTAssertEqual(FolderMonitor.folders(under: [root + "/missing"]), [])
    }
}

/// The batches a monitor delivered (a class, so the closure and the test see the same list).
private final class Box {
    var items: [[String]] = []
}

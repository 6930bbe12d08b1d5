import Logging
@testable import OwnPhotos
import XCTest

/// Scans of a real Pictures folder: photos of every kind and the traps a home folder holds.
final class OwnPhotoIndexerTests: XCTestCase {
    private var fixtures: PhotoFixtures!
    private var pictures: URL!
    private var other: URL!
    private let eiffel = (latitude: 48.8584, longitude: 2.2945)
    private let cap: Int64 = 1_000_000

    override func setUpWithError() throws {
        fixtures = try PhotoFixtures()
        pictures = try fixtures.folder("Pictures")
        other = try fixtures.folder("Other")
        try fixtures.exiftoolJPEG("Pictures/Paris/eiffel.jpg", latitude: eiffel.latitude, longitude: eiffel.longitude,
                                  taken: "2019:06:01 10:00:00", orientation: 6)
        try fixtures.exiftoolJPEG("Pictures/Paris/3km.jpeg", latitude: eiffel.latitude + 3 * degreesPerKilometre,
                                  longitude: eiffel.longitude, taken: "2020:01:01 12:00:00")
        try fixtures.exiftoolJPEG("Pictures/30km.jpg", latitude: eiffel.latitude + 30 * degreesPerKilometre,
                                  longitude: eiffel.longitude, taken: "2018:01:01 12:00:00")
        let rio = try fixtures.plainJPEG("Pictures/rio.JPG")
        try PhotoFixtures.run("exiv2", "-M", "set Exif.GPSInfo.GPSLatitude 22/1 57/1 684/100", "-M", "set Exif.GPSInfo.GPSLatitudeRef S",
                              "-M", "set Exif.GPSInfo.GPSLongitude 43/1 12/1 378/10", "-M", "set Exif.GPSInfo.GPSLongitudeRef W",
                              "-M", "set Exif.Photo.DateTimeOriginal 2021:03:04 05:06:07", rio.path)
        try fixtures.plainJPEG("Pictures/plain.jpg")
        try Data((0..<2048).map { _ in UInt8.random(in: 0...255) }).write(to: pictures.appendingPathComponent("broken.jpg"))
        try Data(contentsOf: pictures.appendingPathComponent("Paris/eiffel.jpg")).prefix(40)
            .write(to: pictures.appendingPathComponent("truncated.jpg"))
        try Data("not a photo".utf8).write(to: pictures.appendingPathComponent("notes.txt"))
        try fixtures.exiftoolJPEG("Pictures/.hidden/secret.jpg", latitude: eiffel.latitude, longitude: eiffel.longitude, taken: nil)
        try fixtures.exiftoolJPEG("Pictures/.dot.jpg", latitude: eiffel.latitude, longitude: eiffel.longitude, taken: nil)
        try FileManager.default.createSymbolicLink(atPath: pictures.appendingPathComponent("Paris/loop").path, withDestinationPath: pictures.path)
        try FileManager.default.createSymbolicLink(atPath: pictures.appendingPathComponent("link.jpg").path,
                                                   withDestinationPath: pictures.appendingPathComponent("Paris/eiffel.jpg").path)
        // Sparse: over the cap without writing a megabyte.
        try PhotoFixtures.run("truncate", "-s", "2M", pictures.appendingPathComponent("huge.jpg").path)
        try fixtures.exiftoolJPEG("Other/tokyo.jpg", latitude: 35.6586, longitude: 139.7454, taken: "2022:02:02 02:02:02")
    }

    override func tearDown() {
        fixtures.remove()
    }

    private func indexer(_ index: OwnPhotoIndex) -> OwnPhotoIndexer {
        OwnPhotoIndexer(index: index, logger: Logger(label: "OwnPhotosTests"), maximumFileBytes: cap)
    }

    private func path(_ relative: String) -> String { fixtures.root.appendingPathComponent(relative).path }

    func testFirstScanIndexesEveryKindAndSkipsTheTraps() async throws {
        let index = try OwnPhotoIndex.inMemory()
        let before = try fixtures.contents()
        let report = try await indexer(index).scan(folders: [pictures, other], progress: nil)
        // eiffel, 3km, 30km, rio, tokyo; plain; broken, truncated; huge. Not notes.txt, hidden, linked.
        XCTAssertEqual(report, IndexReport(photos: 5, read: 9, unchanged: 0, removed: 0, noPosition: 1, unreadable: 2, tooLarge: 1))
        XCTAssertEqual(try fixtures.contents(), before, "indexing changed a file")

        let near = try await index.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(near.map(\.path), [path("Pictures/Paris/3km.jpeg"), path("Pictures/Paris/eiffel.jpg")])
        XCTAssertEqual(near.last?.orientation, 6)
        XCTAssertEqual(near.last?.takenAt, ExifDate.utcCalendar.date(from: DateComponents(year: 2019, month: 6, day: 1, hour: 10)))
        let rio = try await index.photos(nearLatitude: -22.95, longitude: -43.21, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(rio.map(\.path), [path("Pictures/rio.JPG")])
        let counts = try await index.counts(near: [(id: 1, latitude: eiffel.latitude, longitude: eiffel.longitude),
                                                   (id: 2, latitude: 35.6586, longitude: 139.7454),
                                                   (id: 3, latitude: 0.5, longitude: 0.5)], radiusKilometres: 40)
        XCTAssertEqual(counts, [1: 3, 2: 1, 3: 0])
    }

    func testRescanReadsOnlyWhatChangedAndDropsWhatWent() async throws {
        let index = try OwnPhotoIndex.inMemory()
        let indexer = indexer(index)
        _ = try await indexer.scan(folders: [pictures, other], progress: nil)

        var report = try await indexer.scan(folders: [pictures, other], progress: nil)
        XCTAssertEqual(report.read, 0, "nothing changed, nothing read (broken and huge files included)")
        XCTAssertEqual(report.unchanged, 9)

        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: path("Pictures/Paris/eiffel.jpg"))
        report = try await indexer.scan(folders: [pictures, other], progress: nil)
        XCTAssertEqual(report.read, 1)
        XCTAssertEqual(report.unchanged, 8)

        try FileManager.default.removeItem(atPath: path("Pictures/30km.jpg"))
        report = try await indexer.scan(folders: [pictures, other], progress: nil)
        XCTAssertEqual(report.removed, 1)
        XCTAssertEqual(report.photos, 4)

        report = try await indexer.scan(folders: [pictures], progress: nil)
        XCTAssertEqual(report.removed, 1, "Other's photo goes with its folder")
        XCTAssertEqual(report.photos, 3)
        let tokyo = try await index.photos(nearLatitude: 35.6586, longitude: 139.7454, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(tokyo, [])
    }

    func testReopenedIndexFileKeepsEverything() async throws {
        let url = fixtures.root.appendingPathComponent("cache/own-photos.sqlite")
        let first = try await indexer(OwnPhotoIndex(url: url)).scan(folders: [pictures, other], progress: nil)
        let reopened = try OwnPhotoIndex(url: url)
        let report = try await reopened.report()
        XCTAssertEqual(report.photos, first.photos)
        XCTAssertEqual(report.noPosition, first.noPosition)
        XCTAssertEqual(report.unreadable, first.unreadable)
        XCTAssertEqual(report.tooLarge, first.tooLarge)
        let near = try await reopened.photos(nearLatitude: eiffel.latitude, longitude: eiffel.longitude, radiusKilometres: 5, limit: 10)
        XCTAssertEqual(near.count, 2)
        let again = try await indexer(reopened).scan(folders: [pictures, other], progress: nil)
        XCTAssertEqual(again.read, 0)
    }

    func testDamagedIndexFileIsStartedAgain() async throws {
        let url = fixtures.root.appendingPathComponent("own-photos.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: url)
        let index = try OwnPhotoIndex(url: url)
        let report = try await index.report()
        XCTAssertEqual(report, IndexReport())
    }

    func testRefreshReadsOnlyTheGivenPaths() async throws {
        let index = try OwnPhotoIndex.inMemory()
        let indexer = indexer(index)
        _ = try await indexer.scan(folders: [pictures, other], progress: nil)

        try fixtures.exiftoolJPEG("Pictures/Paris/new.jpg", latitude: eiffel.latitude, longitude: eiffel.longitude, taken: "2023:01:01 00:00:00")
        var report = try await indexer.refresh(paths: [path("Pictures/Paris/new.jpg"), path("Pictures/rio.JPG")], within: [pictures, other])
        XCTAssertEqual(report.read, 1)
        XCTAssertEqual(report.unchanged, 1)
        XCTAssertEqual(report.photos, 6)

        try FileManager.default.removeItem(atPath: path("Pictures/Paris/new.jpg"))
        report = try await indexer.refresh(paths: [path("Pictures/Paris/new.jpg")], within: [pictures, other])
        XCTAssertEqual(report.removed, 1)
        XCTAssertEqual(report.photos, 5)

        try FileManager.default.removeItem(atPath: path("Pictures/Paris"))
        report = try await indexer.refresh(paths: [path("Pictures/Paris")], within: [pictures, other])
        XCTAssertEqual(report.removed, 2, "a folder gone takes its photos")

        try fixtures.exiftoolJPEG("Pictures/Rome/colosseum.jpg", latitude: 41.8902, longitude: 12.4922, taken: nil)
        report = try await indexer.refresh(paths: [path("Pictures/Rome")], within: [pictures, other])
        XCTAssertEqual(report.read, 1)
        XCTAssertEqual(report.photos, 4)

        try fixtures.exiftoolJPEG("Elsewhere/outside.jpg", latitude: 1, longitude: 1, taken: nil)
        report = try await indexer.refresh(paths: [path("Elsewhere/outside.jpg"), path("Pictures/.hidden/secret.jpg")], within: [pictures, other])
        XCTAssertEqual(report.read, 0, "outside the folders and hidden files are not read")
        XCTAssertEqual(report.photos, 4)
    }

    /// A folder of 1,200 copies of one tagged photo: a scan of it takes long enough to be stopped halfway.
    private func twelveHundredCopies() throws -> URL {
        let source = pictures.appendingPathComponent("Paris/eiffel.jpg")
        let many = try fixtures.folder("Many")
        for number in 0..<1200 {
            try FileManager.default.copyItem(at: source, to: many.appendingPathComponent("copy-\(number).jpg"))
        }
        return many
    }

    func testCancelledScanStopsAndKeepsWhatItRead() async throws {
        let many = try twelveHundredCopies()
        let index = try OwnPhotoIndex.inMemory()
        let indexer = indexer(index)
        let task = Task {
            try await indexer.scan(folders: [many]) { _ in
                Task { await indexer.cancel() }
            }
        }
        do {
            _ = try await task.value
            XCTFail("the scan went on after cancel()")
        } catch is CancellationError {}
        let report = try await index.report()
        XCTAssertGreaterThanOrEqual(report.photos, 500)
        XCTAssertLessThan(report.photos, 1200)

        let seen = ProgressLog()
        let resumed = try await indexer.scan(folders: [many]) { seen.append($0) }
        XCTAssertEqual(resumed.photos, 1200)
        XCTAssertEqual(resumed.unchanged, report.photos)
        let reports = seen.reports
        XCTAssertGreaterThanOrEqual(reports.count, 3, "progress every 500 files, read or not, and at the end")
        XCTAssertEqual(reports.last, resumed)
        XCTAssertEqual(reports.map { $0.read + $0.unchanged }, reports.map { $0.read + $0.unchanged }.sorted())
    }

    func testTaskCancellationStopsTheScan() async throws {
        let many = try twelveHundredCopies()
        let index = try OwnPhotoIndex.inMemory()
        let indexer = indexer(index)
        let started = expectation(description: "first batch")
        started.assertForOverFulfill = false
        let task = Task { try await indexer.scan(folders: [many]) { _ in started.fulfill() } }
        await fulfillment(of: [started], timeout: 30)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the scan went on after its task was cancelled")
        } catch is CancellationError {}
    }
}

/// The progress reports a scan sent, from its thread.
private final class ProgressLog: @unchecked Sendable {
    // @unchecked: `reports` is touched only under `lock`.
    private let lock = NSLock()
    private var stored: [IndexReport] = []

    func append(_ report: IndexReport) { lock.withLock { stored.append(report) } }
    var reports: [IndexReport] { lock.withLock { stored } }
}

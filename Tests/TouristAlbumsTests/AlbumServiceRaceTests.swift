import FlickrClient
import FlickrTestSupport
import Foundation
import Logging
@testable import TouristAlbums
import TouristStore
import XCTest

/// Races and lost actions: runs that are cancelled, superseded or overtaken by the user must write
/// nothing, and the album ends as the user left it.
final class AlbumServiceRaceTests: AlbumServiceTestCase {
    private let paris = (latitude: 48.8566, longitude: 2.3522)
    private let rome = (latitude: 41.9028, longitude: 12.4964)

    /// The Flickr ids a fresh search of `place` lists first (what its album should hold).
    private static func flickrIds(at place: (latitude: Double, longitude: Double),
                                  from endpoint: URL) async throws -> Set<String> {
        let client = FlickrAPIClient(configuration: FlickrConfiguration(endpoint: endpoint), apiKey: "test-key")
        let page = try await client.searchPhotos(latitude: place.latitude, longitude: place.longitude)
        return Set(page.photos.map(\.id))
    }

    @MainActor
    private func waitUntil(_ condition: () throws -> Bool, seconds: Double = 10,
                           file: StaticString = #filePath, line: UInt = #line) async rethrows {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("not so within \(seconds) s", file: file, line: line) }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// The pin's album is saved, nothing runs for it, and every photo has its file.
    @MainActor
    private func albumIsWhole(ofPin pinID: Int64, _ service: AlbumService) throws -> Bool {
        try database.albumContents(ofPin: pinID).album != nil && !service.activity(ofPin: pinID).isBusy
            && database.photos(ofPin: pinID).allSatisfy { $0.filePath != nil }
    }

    /// The pin's album is whole and of `place`: photos a search there lists, every one downloaded, its files
    /// following its rows, nothing left busy.
    @MainActor
    private func assertWholeAlbum(ofPin pinID: Int64, at place: (latitude: Double, longitude: Double),
                                  _ service: AlbumService, file: StaticString = #filePath, line: UInt = #line) async throws {
        let expected = try await Self.flickrIds(at: place, from: server.restURL)
        let photos = try database.photos(ofPin: pinID)
        XCTAssertFalse(photos.isEmpty, file: file, line: line)
        XCTAssertTrue(Set(photos.map(\.flickrId)).isSubset(of: expected), "only photos of that place", file: file, line: line)
        XCTAssertTrue(photos.allSatisfy { $0.filePath != nil }, "every photo downloaded", file: file, line: line)
        XCTAssertEqual(service.activity(ofPin: pinID), .idle, "no status stuck at “Downloading …”", file: file, line: line)
        try assertFilesFollowRows(pinID: pinID)
    }

    @MainActor
    func testTwoResultsWithTheSameFlickrIdMakeOneAlbum() async throws {
        try await server.inject("search", "duplicate_ids", times: 1)
        let service = makeService()
        let pinID = try insertPin()

        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        XCTAssertEqual(service.activity(ofPin: pinID), .idle, "the album did not fail")
        let photos = try database.photos(ofPin: pinID)
        XCTAssertFalse(photos.isEmpty)
        XCTAssertEqual(Set(photos.map(\.flickrId)).count, photos.count, "each Flickr photo once")
        XCTAssertTrue(photos.allSatisfy { $0.filePath != nil })
        try assertFilesFollowRows(pinID: pinID)
    }

    @MainActor
    func testAPinMovedWhileItsPhotosDownloadGetsThePhotosOfItsNewPlace() async throws {
        try await server.configure(["image_delay": 0.3])
        let service = makeService()
        let pinID = try insertPin(latitude: paris.latitude, longitude: paris.longitude)
        service.ensureAlbum(ofPin: pinID)
        try await server.waitForLog { !$0.images.isEmpty }

        // The user drops the pin somewhere else (as PinWriter does it).
        try database.movePin(id: pinID, latitude: rome.latitude, longitude: rome.longitude, clearingAlbum: true)
        try await server.configure(["image_delay": 0])
        try await waitUntil { try albumIsWhole(ofPin: pinID, service) }
        await service.waitUntilIdle(pinID: pinID)

        try await assertWholeAlbum(ofPin: pinID, at: rome, service)
    }

    @MainActor
    func testANudgedPinKeepsTheDownloadsItStartedWithOneSearch() async throws {
        try await server.configure(["image_delay": 0.2])
        let service = makeService()
        let pinID = try insertPin(latitude: paris.latitude, longitude: paris.longitude)
        service.ensureAlbum(ofPin: pinID) // as when the pin drops, while it is still held
        try await server.waitForLog { !$0.images.isEmpty }

        // Released 100 m away: the album still belongs to the place.
        try database.movePin(id: pinID, latitude: paris.latitude + 0.0009, longitude: paris.longitude,
                             clearingAlbum: true)
        service.ensureAlbum(ofPin: pinID) // as after the move is saved: joins the running fetch
        try await server.configure(["image_delay": 0])
        await service.waitUntilIdle(pinID: pinID)

        let log = try await server.log()
        XCTAssertEqual(log.searches.count, 1, "no second search for a nudge")
        let photos = try database.photos(ofPin: pinID)
        XCTAssertFalse(photos.isEmpty)
        XCTAssertTrue(photos.allSatisfy { $0.filePath != nil }, "every download of the first run landed")
        XCTAssertEqual(service.activity(ofPin: pinID), .idle)
        try assertFilesFollowRows(pinID: pinID)
    }

    @MainActor
    func testASearchThatReturnsAfterThePinMovedIsNotSaved() async throws {
        try await server.inject("search", "delay", times: 1, ["seconds": 1.0])
        let service = makeService()
        let pinID = try insertPin(latitude: paris.latitude, longitude: paris.longitude)
        service.ensureAlbum(ofPin: pinID)
        try await server.waitForLog { !$0.searches.isEmpty }
        let parisAsked = ContinuousClock.now

        try database.movePin(id: pinID, latitude: rome.latitude, longitude: rome.longitude, clearingAlbum: true)
        try await waitUntil { try albumIsWhole(ofPin: pinID, service) }
        await service.waitUntilIdle(pinID: pinID)
        // A pause, not a wait: the Paris answer is sent 1 s after it was asked, and a save of it would land by then.
        try await Task.sleep(until: parisAsked + .seconds(1.5), clock: .continuous)

        let expected = try await Self.flickrIds(at: rome, from: server.restURL)
        let photos = try database.photos(ofPin: pinID)
        XCTAssertFalse(photos.isEmpty, "the album follows the pin to Rome")
        XCTAssertTrue(Set(photos.map(\.flickrId)).isSubset(of: expected), "the Paris answer was not saved for Rome")
        try assertFilesFollowRows(pinID: pinID)
    }

    @MainActor
    func testANewPinSearchesWhereItDroppedWithOneSearch() async throws {
        let service = makeService()
        let pin = try database.insertPin(latitude: paris.latitude, longitude: paris.longitude)
        let pinID = try XCTUnwrap(pin.id)

        service.ensureAlbum(ofNewPin: pin) // as when the drop's insert has come back
        service.ensureAlbum(ofPin: pinID) // as after a release close by: joins the running fetch
        await service.waitUntilIdle(pinID: pinID)

        let log = try await server.log()
        XCTAssertEqual(log.searches.count, 1, "one search")
        try await assertWholeAlbum(ofPin: pinID, at: paris, service)
    }

    @MainActor
    func testANewPinMovedBeforeItsFirstSearchAnswersGetsThePhotosOfItsNewPlace() async throws {
        try await server.inject("search", "delay", times: 1, ["seconds": 1.0])
        let service = makeService()
        let dropped = try database.insertPin(latitude: paris.latitude, longitude: paris.longitude)
        let pinID = try XCTUnwrap(dropped.id)
        service.ensureAlbum(ofNewPin: dropped) // searches Paris, the place the drop wrote, without reading it again
        try await server.waitForLog { !$0.searches.isEmpty }

        // Dragged far away before the button was released (as PinWriter writes it).
        try database.movePin(id: pinID, latitude: rome.latitude, longitude: rome.longitude, clearingAlbum: true)
        try await waitUntil { try albumIsWhole(ofPin: pinID, service) }
        await service.waitUntilIdle(pinID: pinID)

        try await assertWholeAlbum(ofPin: pinID, at: rome, service) // the Paris answer was not saved for Rome
    }

    @MainActor
    func testDeletingAPinInTheStoreStopsItsDownloads() async throws {
        try await server.configure(["image_delay": 1.0])
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        try await server.waitForLog { $0.active_images > 0 }
        let started = Date()

        try database.deletePin(id: pinID)
        await service.waitUntilIdle(pinID: pinID)
        try await waitUntil { service.activity(ofPin: pinID) == .idle }

        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the downloads stopped; they were not awaited")
        XCTAssertEqual(service.activity(ofPin: pinID), .idle)
        try await waitForEveryImageAnswer()
        XCTAssertEqual(filesOnDisk(pinID: pinID), [])
        XCTAssertEqual(stagedFiles, [])
    }

    @MainActor
    func testNewCollectionDuringANewCollectionLeavesOneConsistentAlbum() async throws {
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)
        try await server.configure(["image_delay": 0.2])

        service.newCollection(ofPin: pinID)
        try await server.waitForLog { $0.active_images > 0 }
        service.cancel(pinID: pinID) // the user leaves; the run is cancelled mid-download
        service.newCollection(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)
        try await waitForEveryImageAnswer()

        XCTAssertEqual(service.activity(ofPin: pinID), .idle)
        XCTAssertTrue(try database.photos(ofPin: pinID).allSatisfy { $0.filePath != nil })
        try assertFilesFollowRows(pinID: pinID)
    }

    @MainActor
    func testRetryReplacesAPhotoWhoseFileDoesNotDecode() async throws {
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)
        let photo = try XCTUnwrap(database.photos(ofPin: pinID).first)
        let broken = try XCTUnwrap(photo.filePath)
        try Data("not a photo any more".utf8).write(to: database.photoFileURL(relativePath: broken))

        service.retry(photoID: try XCTUnwrap(photo.id), ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        let replaced = try XCTUnwrap(database.photos(ofPin: pinID).first { $0.id == photo.id }?.filePath)
        XCTAssertNotEqual(replaced, broken, "a new download, at a new path")
        XCTAssertEqual(try Data(contentsOf: database.photoFileURL(relativePath: replaced)), try sampleJPEG())
        XCTAssertFalse(FileManager.default.fileExists(atPath: database.photoFileURL(relativePath: broken).path))
        try assertFilesFollowRows(pinID: pinID)
    }
}

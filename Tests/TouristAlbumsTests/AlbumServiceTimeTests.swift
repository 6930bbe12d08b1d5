import FlickrClient
import Foundation
@testable import TouristAlbums
import TouristStore
import XCTest

/// An album switched to a time ("2010s"): its photos are of that time, it keeps it, and New Collection stays in it.
final class AlbumServiceTimeTests: AlbumServiceTestCase {
    /// The year the test server's photo was taken in (2000 + its index % 26; the index ends its id).
    private func takenYear(_ photo: Photo) -> Int {
        2000 + (Int(photo.flickrId.suffix(5)) ?? -1) % 26
    }

    /// A new service and a pin whose album it switched to `years`, every photo downloaded.
    @MainActor
    private func albumTaken(in years: ClosedRange<Int>) async throws -> (service: AlbumService, pinID: Int64) {
        let service = makeService()
        let pinID = try insertPin()
        service.showPhotos(ofPin: pinID, takenIn: years)
        await service.waitUntilIdle(pinID: pinID)
        return (service, pinID)
    }

    /// What the test server's last search was asked.
    @MainActor
    private func lastSearchQuery() async throws -> [String: String] {
        let log = try await server.log()
        return try XCTUnwrap(log.searches.last).query
    }

    @MainActor
    func testChoosingADecadeStartsACollectionOfItsPhotosAndKeepsIt() async throws {
        // Given a pin whose album shows photos of any time
        let service = makeService()
        let pinID = try insertPin()
        service.ensureAlbum(ofPin: pinID)
        await service.waitUntilIdle(pinID: pinID)

        // When the 2010s are chosen
        service.showPhotos(ofPin: pinID, takenIn: 2010...2019)
        await service.waitUntilIdle(pinID: pinID)

        // Then the album holds photos of the 2010s only, downloaded, and remembers its time
        let contents = try database.albumContents(ofPin: pinID)
        XCTAssertEqual(contents.album?.takenYears, 2010...2019)
        XCTAssertEqual(contents.album?.total, 37)
        XCTAssertFalse(contents.photos.isEmpty)
        XCTAssertEqual(Set(contents.photos.map(takenYear)).subtracting(2010...2019), [])
        XCTAssertTrue(contents.photos.allSatisfy { $0.filePath != nil })
        let query = try await lastSearchQuery()
        XCTAssertEqual(query["min_taken_date"], "2010-01-01 00:00:00")
        XCTAssertEqual(query["page"], "1", "another time starts from its first page")
    }

    @MainActor
    func testNewCollectionStaysWithinTheAlbumsTime() async throws {
        // Given an album of the 2010s (two pages)
        let (_, pinID) = try await albumTaken(in: 2010...2019)

        // When New Collection is asked for, by a service started anew (the time comes from the store)
        let restarted = makeService()
        restarted.newCollection(ofPin: pinID)
        await restarted.waitUntilIdle(pinID: pinID)

        // Then it searched the 2010s' other page
        let query = try await lastSearchQuery()
        XCTAssertEqual(query["min_taken_date"], "2010-01-01 00:00:00")
        XCTAssertEqual(query["max_taken_date"], "2019-12-31 23:59:59")
        XCTAssertEqual(query["page"], "2")
        let contents = try database.albumContents(ofPin: pinID)
        XCTAssertEqual(contents.album?.takenYears, 2010...2019)
        XCTAssertEqual(contents.album?.page, 2)
        XCTAssertEqual(Set(contents.photos.map(takenYear)).subtracting(2010...2019), [])
    }

    @MainActor
    func testChoosingAnyTimeAgainSearchesWithoutDates() async throws {
        let (service, pinID) = try await albumTaken(in: 2015...2015)

        service.showPhotos(ofPin: pinID, takenIn: nil)
        await service.waitUntilIdle(pinID: pinID)

        let query = try await lastSearchQuery()
        XCTAssertNil(query["min_taken_date"])
        let album = try XCTUnwrap(try database.album(ofPin: pinID))
        XCTAssertNil(album.takenYears)
        XCTAssertEqual(album.total, 95)
    }
}

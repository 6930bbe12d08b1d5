import Foundation
import TouristStore
import XCTest

/// Several downloaded photos taken into the store in one write.
final class PhotoAdoptionTests: XCTestCase {
    func testEachPhotoOfABatchHasItsOwnOutcome() throws {
        // Given three photos: one to adopt, one removed from the album meanwhile, one whose staged file is gone
        let paths = try makeTemporaryPaths()
        let database = try AppDatabase.open(paths: paths)
        let pinId = try XCTUnwrap(database.insertPin(latitude: 1, longitude: 1).id)
        let photos = try (0..<3).map { try database.insertPhoto(makePhoto(pinId: pinId, flickrId: "f\($0)", position: $0)) }
        try FileManager.default.createDirectory(at: paths.stagingFolder, withIntermediateDirectories: true)
        let staged = (0..<3).map { paths.stagingFolder.appendingPathComponent("staged-\($0).jpg") }
        try Data("jpeg 0".utf8).write(to: staged[0])
        try Data("jpeg 1".utf8).write(to: staged[1])
        _ = try database.deletePhotoForUndo(id: photos[1].id!).map { try database.finishPhotoDeletion($0) }

        // When adopting them in one write
        let outcomes = try database.adoptPhotoFiles(zip(photos, staged).map {
            StagedPhotoFile(photoID: $0.id!, file: $1, fileExtension: "jpg")
        })

        // Then the first is in the album with its file, and the others say what went wrong
        XCTAssertEqual(outcomes.count, 3)
        let path = try XCTUnwrap(try? outcomes[0].get())
        XCTAssertEqual(try Data(contentsOf: database.photoFileURL(relativePath: path)), Data("jpeg 0".utf8))
        XCTAssertEqual(try database.photos(ofPin: pinId).first { $0.id == photos[0].id }?.filePath, path)
        XCTAssertFalse(fileExists(staged[0]), "moved, not copied")
        XCTAssertEqual(outcomes[1].failure, .photoNotFound(id: photos[1].id!))
        XCTAssertTrue(fileExists(staged[1]), "a photo that is gone leaves its staged file to its owner")
        guard case .notWritable = outcomes[2].failure else {
            return XCTFail("a file that cannot be moved is that photo's failure: \(outcomes[2])")
        }
        XCTAssertNil(try database.photos(ofPin: pinId).first { $0.id == photos[2].id }?.filePath)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

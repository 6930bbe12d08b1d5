import Foundation
import GRDB
import XCTest
@testable import TouristStore

final class StoreErrorTests: XCTestCase {
    private let folder = URL(fileURLWithPath: "/home/ada/.local/share/virtual-tourist")
    private let databaseURL = URL(fileURLWithPath: "/home/ada/.local/share/virtual-tourist/VirtualTourist.sqlite")

    private func translate(_ error: any Error) -> StoreError {
        StoreError(error, folder: folder, databaseURL: databaseURL)
    }

    func testFullDiskTellsThePersonToFreeSpace() {
        let error = translate(DatabaseError(resultCode: .SQLITE_FULL))

        XCTAssertEqual(error, .diskFull(folder: folder))
        XCTAssertEqual(error.localizedDescription, """
            Virtual Tourist could not save to /home/ada/.local/share/virtual-tourist: \
            the disk is full. Free some space and try again.
            """)
    }

    func testReadOnlyAndPermissionErrorsSayTheFolderIsNotWritable() {
        XCTAssertEqual(translate(DatabaseError(resultCode: .SQLITE_READONLY)), .notWritable(folder: folder))
        XCTAssertEqual(translate(DatabaseError(resultCode: .SQLITE_PERM)), .notWritable(folder: folder))
        XCTAssertEqual(translate(CocoaError(.fileWriteNoPermission)), .notWritable(folder: folder))
        XCTAssertEqual(translate(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))), .notWritable(folder: folder))
    }

    func testCorruptAndNonDatabaseFilesAreReportedAsDamaged() {
        XCTAssertEqual(translate(DatabaseError(resultCode: .SQLITE_CORRUPT)), .corrupt(databaseURL: databaseURL))
        XCTAssertEqual(translate(DatabaseError(resultCode: .SQLITE_NOTADB)), .corrupt(databaseURL: databaseURL))
        XCTAssertTrue(StoreError.corrupt(databaseURL: databaseURL).localizedDescription
            .contains("move that file somewhere else"))
    }

    func testFileSystemFullDiskIsReportedAsDiskFull() {
        XCTAssertEqual(translate(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))), .diskFull(folder: folder))
        XCTAssertEqual(translate(CocoaError(.fileWriteOutOfSpace)), .diskFull(folder: folder))
    }

    func testStoreErrorsPassThroughUnchanged() {
        XCTAssertEqual(translate(StoreError.pinNotFound(id: 3)), .pinNotFound(id: 3))
    }

    func testOtherErrorsKeepTheirDescription() {
        let error = translate(DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: planet"))

        XCTAssertEqual(error, .other(reason: "no such table: planet"))
        XCTAssertTrue(error.localizedDescription.hasSuffix("no such table: planet"))
    }

    func testEveryErrorHasAMessage() {
        let errors: [StoreError] = [
            .diskFull(folder: folder), .notWritable(folder: folder), .corrupt(databaseURL: databaseURL),
            .cannotOpen(databaseURL: databaseURL), .busy(databaseURL: databaseURL), .pinNotFound(id: 1),
            .photoNotFound(id: 1), .duplicatePhoto(pinId: 1, flickrId: "2"), .invalidPhotoPath("../x"),
            .other(reason: "x"),
        ]
        for error in errors {
            XCTAssertFalse(error.errorDescription?.isEmpty ?? true, "\(error)")
        }
    }
}

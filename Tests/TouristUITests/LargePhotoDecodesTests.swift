import CGtk
@testable import TouristUI
import XCTest

/// The viewer's bigger sizes as their downloads decoded them: each handed over once, the newest few kept.
final class LargePhotoDecodesTests: XCTestCase {
    private func decode() throws -> DecodedPixbuf {
        DecodedPixbuf(adopting: try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 4, 4)))
    }

    func testADecodeIsHandedOverOnceByItsFilesPath() throws {
        let decodes = LargePhotoDecodes()
        let decoded = try decode()
        decodes.keep(decoded, at: "/large/1.jpg")

        XCTAssertNil(decodes.take("/large/2.jpg"), "another file's")
        XCTAssertTrue(decodes.take("/large/1.jpg") === decoded)
        XCTAssertNil(decodes.take("/large/1.jpg"), "handed over once: the next viewing decodes the file")
    }

    func testOnlyTheNewestFewAreKept() throws {
        let decodes = LargePhotoDecodes()
        for index in 0..<6 { decodes.keep(try decode(), at: "/large/\(index).jpg") }

        XCTAssertNil(decodes.take("/large/0.jpg"))
        XCTAssertNil(decodes.take("/large/1.jpg"))
        for index in 2..<6 { XCTAssertNotNil(decodes.take("/large/\(index).jpg"), "photo \(index) is among the newest") }
    }
}

import Foundation
import CGtk
@testable import TouristUI
import XCTest

final class ImageDecodingTests: XCTestCase {
    private var sampleJPEG: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg")
    }

    func testAJPEGIsDecodable() throws {
        XCTAssertTrue(ImageDecoding.isDecodable(try Data(contentsOf: sampleJPEG)))
    }

    func testHTMLAndTruncatedImagesAreNotDecodable() throws {
        let jpeg = try Data(contentsOf: sampleJPEG)
        XCTAssertFalse(ImageDecoding.isDecodable(Data("<html><body>Oops</body></html>".utf8)))
        XCTAssertFalse(ImageDecoding.isDecodable(jpeg.prefix(jpeg.count / 2)))
        XCTAssertFalse(ImageDecoding.isDecodable(Data()))
    }

    func testThumbnailsAreSquareAtTheRequestedSize() throws {
        let thumbnail = try XCTUnwrap(ImageDecoding.squareThumbnail(path: sampleJPEG.path, side: 150))
        XCTAssertEqual(gdk_pixbuf_get_width(thumbnail.pixbuf), 150)
        XCTAssertEqual(gdk_pixbuf_get_height(thumbnail.pixbuf), 150)
    }

    func testAMissingFileGivesNoThumbnail() {
        XCTAssertNil(ImageDecoding.squareThumbnail(path: "/nonexistent/photo.jpg", side: 150))
    }
}

final class ImageDecodingOffMainThreadTests: XCTestCase {
    func testThumbnailsDecodeOnOtherThreadsAtOnce() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
        let sizes = await withTaskGroup(of: Int32?.self) { group in
            for _ in 0..<12 {
                group.addTask { ImageDecoding.squareThumbnail(path: path, side: 150).map { gdk_pixbuf_get_width($0.pixbuf) } }
            }
            var sizes: [Int32?] = []
            for await size in group { sizes.append(size) }
            return sizes
        }
        XCTAssertEqual(sizes, Array(repeating: 150, count: 12))
    }
}

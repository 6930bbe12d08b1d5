import CGtk
import Foundation
@testable import TouristUI
import XCTest

/// The album grid's kept pictures: read back at their size, made again when unusable, trimmed to capacity.
final class ThumbnailCacheTests: XCTestCase {
    private var photo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
    }

    private func makeCache(capacity: Int = 4000) throws -> ThumbnailCache {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return ThumbnailCache(folder: folder, capacity: capacity)
    }

    func testAKeptPictureIsReadBackAtItsSizeAndLooksLikeThePhoto() throws {
        let cache = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: photo, side: 24))
        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24), "nothing kept yet")

        cache.save(decoded, relativePath: "photos/7/1-ab.jpg", side: 24)

        let kept = try XCTUnwrap(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24))
        XCTAssertEqual(gdk_pixbuf_get_width(kept.pixbuf), 24)
        XCTAssertEqual(gdk_pixbuf_get_height(kept.pixbuf), 24)
        XCTAssertLessThan(colourDistance(kept, decoded, x: 12, y: 12), 24, "the same picture (JPEG at quality 90)")
        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 48), "another size is another picture")
        XCTAssertNil(cache.load(relativePath: "photos/7/2-cd.jpg", side: 24), "another photo")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder.appendingPathComponent("24").path)
        XCTAssertEqual(files, ["photos_7_1-ab.jpg.thumbnail"], "no part file is left")
    }

    func testADamagedPictureIsNotUsed() throws {
        let cache = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: photo, side: 24))
        cache.save(decoded, relativePath: "photos/7/1-ab.jpg", side: 24)
        let file = cache.file(for: "photos/7/1-ab.jpg", side: 24)
        try Data("<html>not a picture</html>".utf8).write(to: file)

        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24), "the photo is decoded instead")
    }

    func testTrimmingKeepsTheNewestAndClearsInterruptedWrites() throws {
        let cache = try makeCache(capacity: 2)
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: photo, side: 24))
        for index in 0..<4 {
            cache.save(decoded, relativePath: "photos/1/\(index).jpg", side: 24)
            let file = cache.file(for: "photos/1/\(index).jpg", side: 24)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 10))],
                                                  ofItemAtPath: file.path)
        }
        let interrupted = cache.folder.appendingPathComponent("24/photos_1_9.jpg.thumbnail.1234.part")
        try Data("half".utf8).write(to: interrupted)

        cache.trim()

        let left = try FileManager.default.contentsOfDirectory(atPath: cache.folder.appendingPathComponent("24").path)
        XCTAssertEqual(Set(left), ["photos_1_2.jpg.thumbnail", "photos_1_3.jpg.thumbnail"])
    }

    private func colourDistance(_ a: DecodedPixbuf, _ b: DecodedPixbuf, x: Int, y: Int) -> Int {
        func pixel(_ image: DecodedPixbuf) -> [Int] {
            let pixels = gdk_pixbuf_get_pixels(image.pixbuf)!
            let offset = y * Int(gdk_pixbuf_get_rowstride(image.pixbuf)) + x * Int(gdk_pixbuf_get_n_channels(image.pixbuf))
            return (0..<3).map { Int(pixels[offset + $0]) }
        }
        return zip(pixel(a), pixel(b)).map { abs($0 - $1) }.max() ?? 0
    }
}

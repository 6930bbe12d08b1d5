import CGtk
import Foundation
import GLibSwift
@testable import TouristUI
import XCTest

/// The album grid's kept pictures: read back at their size, made again when unusable, trimmed to capacity.
final class ThumbnailCacheTests: XCTestCase {
    private var photo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
    }

    /// A cache, and a copy of the sample photo standing for the album's file.
    private func makeCache(budget: Int = ThumbnailCache.defaultBudget) throws -> (ThumbnailCache, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(atPath: photo, toPath: file.path)
        return (ThumbnailCache(folder: folder.appendingPathComponent("cache"), budget: budget), file.path)
    }

    func testAKeptPictureIsReadBackAtItsSizeAndLooksLikeThePhoto() throws {
        let (cache, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "nothing kept yet")

        cache.save(decoded, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)

        let kept = try XCTUnwrap(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file))
        XCTAssertEqual(kept.width, 24)
        XCTAssertEqual(kept.height, 24)
        XCTAssertEqual(colourDistance(kept, decoded, x: 12, y: 12), 0, "the very picture: nothing is lost")
        XCTAssertEqual(colourDistance(kept, decoded, x: 3, y: 20), 0)
        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 48, scale: 1, photo: file), "another size is another picture")
        XCTAssertNil(cache.load(relativePath: "photos/7/2-cd.jpg", side: 24, scale: 1, photo: file), "another photo")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder.appendingPathComponent("24").path)
        XCTAssertEqual(files, ["photos_7_1-ab.jpg.kept"], "no part file is left")
    }

    /// A cache keeping a 24-pixel picture of the sample photo, the picture's file, and its stat (the photo's stamp).
    private func makeKeptPicture() throws -> (ThumbnailCache, String, URL, stat) {
        let (cache, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        cache.save(decoded, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)
        let kept = cache.file(for: "photos/7/1-ab.jpg", side: 24)
        var status = stat()
        stat(kept.path, &status)
        return (cache, file, kept, status)
    }

    func testADamagedPictureIsNotUsed() throws {
        let (cache, file, kept, status) = try makeKeptPicture()
        try Data("<html>not a picture</html>".utf8).write(to: kept)
        let times = [status.st_mtim, status.st_mtim] // still stamped as the photo's
        XCTAssertEqual(utimensat(AT_FDCWD, kept.path, times, 0), 0)

        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "the photo is decoded instead")
    }

    func testACutShortLengthenedOrResizedPictureIsNotUsed() throws {
        let (cache, file, kept, status) = try makeKeptPicture()
        let whole = try Data(contentsOf: kept)
        XCTAssertEqual(whole.count, 24 + 24 * 24 * 4, "a header and the rows, as cairo keeps them")
        let other = try makeCache()
        let otherSize = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 30))
        other.0.save(otherSize, relativePath: "photos/7/1-ab.jpg", side: 30, photo: other.1)
        var anotherVersion = whole
        anotherVersion[4] = 9

        for (damage, bytes) in [("cut short in its pixels", whole.prefix(whole.count - 40)), ("only its header", whole.prefix(24)),
                                ("cut short in its header", whole.prefix(10)), ("with more after it", whole + Data([0])),
                                ("of another size", try Data(contentsOf: other.0.file(for: "photos/7/1-ab.jpg", side: 30))),
                                ("in another version of the format", anotherVersion)] {
            try bytes.write(to: kept)
            XCTAssertEqual(utimensat(AT_FDCWD, kept.path, [status.st_mtim, status.st_mtim], 0), 0)
            XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file),
                         "a picture \(damage) is not used: the photo is decoded instead")
        }
        try whole.write(to: kept)
        XCTAssertEqual(utimensat(AT_FDCWD, kept.path, [status.st_mtim, status.st_mtim], 0), 0)
        XCTAssertNotNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "whole again")
    }

    func testAPictureWithTransparencyIsKeptWithIt() throws {
        let (cache, file) = try makeCache()
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 24, 24))
        gdk_pixbuf_fill(pixbuf, 0x20_40_C0_80) // blue, half transparent
        cache.save(DecodedPixbuf(adopting: pixbuf), relativePath: "photos/7/3-ef.png", side: 24, photo: file)

        let kept = try XCTUnwrap(cache.load(relativePath: "photos/7/3-ef.png", side: 24, scale: 2, photo: file))

        XCTAssertEqual(cairo_image_surface_get_format(kept.surface), CAIRO_FORMAT_ARGB32)
        XCTAssertEqual(kept.scale, 2)
        let data = try XCTUnwrap(cairo_image_surface_get_data(kept.surface))
        let pixel = (0..<4).map { Int(data[5 * Int(cairo_image_surface_get_stride(kept.surface)) + 7 * 4 + $0]) }
        XCTAssertEqual(pixel[3], 0x80, "its alpha") // premultiplied ARGB in native (little-endian) order
        XCTAssertEqual(pixel[0], 0xC0 * 0x80 / 255, accuracy: 1, "its blue, premultiplied")
    }

    func testAPictureOfAPhotoFileChangedSinceIsNotUsed() throws {
        let (cache, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        cache.save(decoded, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)
        XCTAssertNotNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file))

        try Data("this was a photo".utf8).write(to: URL(fileURLWithPath: file)) // a damaged disk, a stray edit

        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file),
                     "the file is decoded (and found damaged) instead of showing what it was")
        XCTAssertNil(cache.load(relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file + ".gone"), "nor for no file")
    }

    func testTrimmingKeepsTheNewestWithinItsBudgetAndClearsInterruptedWritesAndEarlierFormats() throws {
        let pictureBytes = 24 + 24 * 24 * 4
        let (cache, file) = try makeCache(budget: 2 * pictureBytes + pictureBytes / 2)
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        for index in 0..<4 {
            cache.save(decoded, relativePath: "photos/1/\(index).jpg", side: 24, photo: file)
            let file = cache.file(for: "photos/1/\(index).jpg", side: 24)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(index - 10))],
                                                  ofItemAtPath: file.path)
        }
        let interrupted = cache.folder.appendingPathComponent("24/photos_1_9.jpg.kept.1234.part")
        try Data("half".utf8).write(to: interrupted)
        let earlierFormat = cache.folder.appendingPathComponent("24/photos_1_8.jpg.thumbnail") // a JPEG, until now
        try Data([0xFF, 0xD8, 0xFF]).write(to: earlierFormat)

        cache.trim()

        let left = try FileManager.default.contentsOfDirectory(atPath: cache.folder.appendingPathComponent("24").path)
        XCTAssertEqual(Set(left), ["photos_1_2.jpg.kept", "photos_1_3.jpg.kept"])
    }

    /// The keeping thread of `testAPhotoDecodedForTheGridDoesNotWaitForItsPictureToBeWritten` (it lives as long as the
    /// process, as the app's does).
    private static let keeping = BackgroundThread(name: "test-picture-keeping", nice: 19)

    func testAPhotoDecodedForTheGridDoesNotWaitForItsPictureToBeWritten() throws {
        let (plain, file) = try makeCache()
        let cache = ThumbnailCache(folder: plain.folder, keeping: Self.keeping)
        let busy = DispatchSemaphore(value: 0)
        Self.keeping.run { busy.wait() } // the keeping thread is held: a write behind it cannot happen yet
        let kept = cache.file(for: "photos/7/1-ab.jpg", side: 24)

        let decoded = try XCTUnwrap(PhotoPicture.load(relativePath: "photos/7/1-ab.jpg", path: file, side: 24, scale: 1,
                                                      thumbnails: cache))

        XCTAssertEqual(decoded.source, .file)
        XCTAssertEqual(decoded.picture.width, 24)
        XCTAssertFalse(FileManager.default.fileExists(atPath: kept.path), "shown before its picture is written")
        busy.signal()
        let written = DispatchSemaphore(value: 0)
        Self.keeping.run { written.signal() } // after the picture's write
        XCTAssertEqual(written.wait(timeout: .now() + 10), .success)
        let again = try XCTUnwrap(PhotoPicture.load(relativePath: "photos/7/1-ab.jpg", path: file, side: 24, scale: 1,
                                                    thumbnails: cache))
        XCTAssertEqual(again.source, .thumbnail, "kept on the keeping thread, and read back next time")
    }

    /// The largest difference of red, green or blue at (x, y) between the kept picture and the decoded photo.
    private func colourDistance(_ kept: PaintablePicture, _ decoded: DecodedPixbuf, x: Int, y: Int) -> Int {
        cairo_surface_flush(kept.surface)
        let data = cairo_image_surface_get_data(kept.surface)!
        let at = y * Int(cairo_image_surface_get_stride(kept.surface)) + x * 4
        let keptPixel = [Int(data[at + 2]), Int(data[at + 1]), Int(data[at])] // xRGB in native (little-endian) order
        let pixels = gdk_pixbuf_get_pixels(decoded.pixbuf)!
        let offset = y * Int(gdk_pixbuf_get_rowstride(decoded.pixbuf)) + x * Int(gdk_pixbuf_get_n_channels(decoded.pixbuf))
        return zip(keptPixel, (0..<3).map { Int(pixels[offset + $0]) }).map { abs($0 - $1) }.max() ?? 0
    }
}

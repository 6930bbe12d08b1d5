import CGtk
import Foundation
import GLibSwift
@testable import TouristUI
import XCTest

/// The album grid's pictures: kept pictures read back at their size, made again when unusable, trimmed to capacity;
/// a photo decoded once, whether it came by download or from its file.
final class AlbumPicturesTests: XCTestCase {
    private var photo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
    }

    /// A cache, and a copy of the sample photo standing for the album's file.
    private func makeCache(budget: Int = AlbumPictures.defaultBudget) throws -> (AlbumPictures, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(atPath: photo, toPath: file.path)
        let pictures = AlbumPictures(folder: folder.appendingPathComponent("cache"), budget: budget,
                                     photoPath: { folder.appendingPathComponent($0).path })
        return (pictures, file.path)
    }

    func testAKeptPictureIsReadBackAtItsSizeAndLooksLikeThePhoto() throws {
        let (cache, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "nothing kept yet")

        save(decoded, in: cache, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)

        let kept = try XCTUnwrap(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file))
        XCTAssertEqual(kept.width, 24)
        XCTAssertEqual(kept.height, 24)
        XCTAssertEqual(colourDistance(kept, decoded, x: 12, y: 12), 0, "the very picture: nothing is lost")
        XCTAssertEqual(colourDistance(kept, decoded, x: 3, y: 20), 0)
        XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 48, scale: 1, photo: file), "another size is another picture")
        XCTAssertNil(load(cache, relativePath: "photos/7/2-cd.jpg", side: 24, scale: 1, photo: file), "another photo")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.folder.appendingPathComponent("24").path)
        XCTAssertEqual(files, ["photos_7_1-ab.jpg.kept"], "no part file is left")
    }

    /// A cache keeping a 24-pixel picture of the sample photo, the picture's file, and its stat (the photo's stamp).
    private func makeKeptPicture() throws -> (AlbumPictures, String, URL, stat) {
        let (cache, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        save(decoded, in: cache, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)
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

        XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "the photo is decoded instead")
    }

    func testACutShortLengthenedOrResizedPictureIsNotUsed() throws {
        let (cache, file, kept, status) = try makeKeptPicture()
        let whole = try Data(contentsOf: kept)
        XCTAssertEqual(whole.count, 24 + 24 * 24 * 4, "a header and the rows, as cairo keeps them")
        let other = try makeCache()
        let otherSize = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 30))
        save(otherSize, in: other.0, relativePath: "photos/7/1-ab.jpg", side: 30, photo: other.1)
        var anotherVersion = whole
        anotherVersion[4] = 9

        for (damage, bytes) in [("cut short in its pixels", whole.prefix(whole.count - 40)), ("only its header", whole.prefix(24)),
                                ("cut short in its header", whole.prefix(10)), ("with more after it", whole + Data([0])),
                                ("of another size", try Data(contentsOf: other.0.file(for: "photos/7/1-ab.jpg", side: 30))),
                                ("in another version of the format", anotherVersion)] {
            try bytes.write(to: kept)
            XCTAssertEqual(utimensat(AT_FDCWD, kept.path, [status.st_mtim, status.st_mtim], 0), 0)
            XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file),
                         "a picture \(damage) is not used: the photo is decoded instead")
        }
        try whole.write(to: kept)
        XCTAssertEqual(utimensat(AT_FDCWD, kept.path, [status.st_mtim, status.st_mtim], 0), 0)
        XCTAssertNotNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file), "whole again")
    }

    func testAPictureWithTransparencyIsKeptWithIt() throws {
        let (cache, file) = try makeCache()
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 24, 24))
        gdk_pixbuf_fill(pixbuf, 0x20_40_C0_80) // blue, half transparent
        save(DecodedPixbuf(adopting: pixbuf), in: cache, relativePath: "photos/7/3-ef.png", side: 24, photo: file)

        let kept = try XCTUnwrap(load(cache, relativePath: "photos/7/3-ef.png", side: 24, scale: 2, photo: file))

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
        save(decoded, in: cache, relativePath: "photos/7/1-ab.jpg", side: 24, photo: file)
        XCTAssertNotNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file))

        try Data("this was a photo".utf8).write(to: URL(fileURLWithPath: file)) // a damaged disk, a stray edit

        XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file),
                     "the file is decoded (and found damaged) instead of showing what it was")
        XCTAssertNil(load(cache, relativePath: "photos/7/1-ab.jpg", side: 24, scale: 1, photo: file + ".gone"), "nor for no file")
    }

    func testTrimmingKeepsTheNewestWithinItsBudgetAndClearsInterruptedWritesAndEarlierFormats() throws {
        let pictureBytes = 24 + 24 * 24 * 4
        let (cache, file) = try makeCache(budget: 2 * pictureBytes + pictureBytes / 2)
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))
        for index in 0..<4 {
            save(decoded, in: cache, relativePath: "photos/1/\(index).jpg", side: 24, photo: file)
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

    func testAPhotoIsDecodedOnceAndItsPictureReadBackAfterThat() async throws {
        let (pictures, _) = try makeCache()

        let firstPicture = await pictures.picture(of: "photo.jpg", side: 24, scale: 1)
        let first = try XCTUnwrap(firstPicture)
        let againPicture = await pictures.picture(of: "photo.jpg", side: 24, scale: 1)
        let again = try XCTUnwrap(againPicture)

        XCTAssertEqual(first.origin, .decoded)
        XCTAssertEqual(first.picture.width, 24)
        XCTAssertEqual(again.origin, .kept, "kept at its decode, and read back next time")
        XCTAssertEqual(again.picture.width, 24)
        let missing = await pictures.picture(of: "gone.jpg", side: 24, scale: 1)
        XCTAssertNil(missing, "a file that is gone has no picture")
    }

    func testADownloadsDecodeIsKeptAsThePictureOfItsFile() async throws {
        let (pictures, file) = try makeCache()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: file, side: 24))

        pictures.keep(decoded, of: "photo.jpg")
        let shownPicture = await pictures.picture(of: "photo.jpg", side: 24, scale: 1)
        let shown = try XCTUnwrap(shownPicture)
        try await waitUntil { FileManager.default.fileExists(atPath: pictures.file(for: "photo.jpg", side: 24).path) }
        let againPicture = await pictures.picture(of: "photo.jpg", side: 24, scale: 1)
        let again = try XCTUnwrap(againPicture)

        XCTAssertEqual(shown.origin, .download, "the download's own decode, not the file decoded again")
        XCTAssertEqual(colourDistance(shown.picture, decoded, x: 12, y: 12), 0)
        XCTAssertEqual(again.origin, .kept)
    }

    /// `surface(decoded)` kept as the picture of `relativePath` in `pictures`' folder.
    private func save(_ decoded: DecodedPixbuf, in pictures: AlbumPictures, relativePath: String, side: Int32,
                      photo: String) {
        let surface = ImageSurfaces.surface(from: decoded.pixbuf)!
        defer { cairo_surface_destroy(surface) }
        KeptPicture.write(surface, to: pictures.file(for: relativePath, side: side).path, photo: photo)
    }

    private func load(_ pictures: AlbumPictures, relativePath: String, side: Int32, scale: Int32,
                      photo: String) -> PaintablePicture? {
        KeptPicture.read(path: pictures.file(for: relativePath, side: side).path, side: side, photo: photo)
            .map { PaintablePicture(adopting: $0, scale: scale) }
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return XCTFail("not within 10 s") }
            try await Task.sleep(for: .milliseconds(5))
        }
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

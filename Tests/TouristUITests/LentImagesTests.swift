import CGtk
import Foundation
import GLibSwift
@testable import TouristUI
import XCTest

/// An album's kept pictures read by its reading threads straight into images like the window's (`DisplayImages.lend`):
/// only free images are lent, a picture read into one holds it until it is let go, and what cannot be read into one
/// is read as before.
final class LentImagesTests: XCTestCase {
    private var sample: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
    }

    @MainActor
    func testKeptPicturesAreReadIntoFreeImagesOffTheMainThread() async throws {
        let images = try await imagesMadeAhead(3, capacity: 4)
        let shown = try XCTUnwrap(images.copy(of: plainPicture())) // a tile shows it: not free

        let (cache, photo) = try keptPictures(["photos/1/a.jpg", "photos/1/b.jpg", "photos/1/c.jpg"])
        XCTAssertNil(images.lend(count: 3, side: 48, scale: 1), "none of another size")
        let lent = try XCTUnwrap(images.lend(count: 3, side: 24, scale: 1))

        // Handed over in a box, not as the task's value: the task's storage, which keeps its value, may outlive the
        // await on another thread for a moment, and would hold the pictures (and their images) beyond `read = []`.
        let box = Pictures()
        await Task.detached {
            box.read = ["photos/1/a.jpg", "photos/1/gone.jpg", "photos/1/b.jpg", "photos/1/c.jpg"].map {
                cache.load(relativePath: $0, side: 24, scale: 1, photo: photo, into: lent)
            }
        }.value
        var read = box.read
        box.read = []
        lent.release()

        let surfaces: [OpaquePointer]
        do {
            let (first, gone, second, third) = (try XCTUnwrap(read[0]), read[1], try XCTUnwrap(read[2]),
                                                try XCTUnwrap(read[3]))
            XCTAssertNil(gone, "a picture that is not kept is not read (its image is given back for the next)")
            XCTAssertTrue(first.isDisplayImage && second.isDisplayImage, "the two free images were read into")
            XCTAssertFalse(third.isDisplayImage, "with none left, the picture is read into an image of its own")
            XCTAssertNotEqual(first.surface, shown)
            XCTAssertNotEqual(first.surface, second.surface)
            XCTAssertEqual(images.count, 3, "lent, not made")
            let expected = try XCTUnwrap(cache.load(relativePath: "photos/1/a.jpg", side: 24, scale: 1, photo: photo))
            for picture in [first, second, third] {
                picture.markWritten()
                XCTAssertEqual(pixel(picture.surface, x: 12, y: 12), pixel(expected.surface, x: 12, y: 12), "the kept picture")
                XCTAssertEqual(pixel(picture.surface, x: 2, y: 21), pixel(expected.surface, x: 2, y: 21))
            }
            withExtendedLifetime(read) {
                XCTAssertNil(images.lend(count: 3, side: 24, scale: 1), "a picture read into an image holds it")
            }
            surfaces = [first.surface, second.surface]
            for surface in surfaces { cairo_surface_reference(surface) } // a tile shows each, as GTK would
        }
        read = [] // the pictures go; the tiles still show theirs
        XCTAssertNil(images.lend(count: 3, side: 24, scale: 1), "shown, they are not lent")
        for surface in surfaces { cairo_surface_destroy(surface) } // the tiles go
        let again = try XCTUnwrap(images.lend(count: 3, side: 24, scale: 1), "let go of, they are lent again")
        again.release()
        cairo_surface_destroy(shown)
        images.removeAll()
    }

    @MainActor
    func testAPictureWithTransparencyIsNotReadIntoAnOpaqueImage() async throws {
        let images = try await imagesMadeAhead(1)
        let (cache, photo) = try keptPictures([])
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, 24, 24))
        gdk_pixbuf_fill(pixbuf, 0x20_40_C0_80) // half transparent
        cache.save(DecodedPixbuf(adopting: pixbuf), relativePath: "photos/1/t.png", side: 24, photo: photo)
        let lent = try XCTUnwrap(images.lend(count: 1, side: 24, scale: 1))

        let picture = try XCTUnwrap(cache.load(relativePath: "photos/1/t.png", side: 24, scale: 1, photo: photo, into: lent))

        XCTAssertFalse(picture.isDisplayImage)
        XCTAssertEqual(cairo_image_surface_get_format(picture.surface), CAIRO_FORMAT_ARGB32, "read as it was kept")
        XCTAssertNotNil(lent.take(), "the image was given back")
        lent.release()
        images.removeAll()
    }

    @MainActor
    func testAPhotoDecodedForAnAlbumIsPaintedIntoALentImageAndKept() async throws {
        let images = try await imagesMadeAhead(1)
        let (cache, photo) = try keptPictures([]) // its picture is not kept: the photo is decoded
        let lent = try XCTUnwrap(images.lend(count: 1, side: 24, scale: 1))

        let loaded = await Task.detached {
            PhotoPicture.load(relativePath: "photos/1/d.jpg", path: photo, side: 24, scale: 1, thumbnails: cache, lent: lent)
        }.value
        lent.release()

        let picture = try XCTUnwrap(loaded)
        XCTAssertEqual(picture.source, .file)
        XCTAssertTrue(picture.picture.isDisplayImage, "painted into the lent image")
        picture.picture.markWritten()
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: photo, side: 24))
        let expected = try XCTUnwrap(ImageSurfaces.surface(from: decoded.pixbuf))
        defer { cairo_surface_destroy(expected) }
        XCTAssertEqual(pixel(picture.picture.surface, x: 12, y: 12), pixel(expected, x: 12, y: 12), "the decoded photo")
        XCTAssertEqual(pixel(picture.picture.surface, x: 20, y: 3), pixel(expected, x: 20, y: 3))
        XCTAssertNotNil(cache.load(relativePath: "photos/1/d.jpg", side: 24, scale: 1, photo: photo), "and its picture kept")
        images.removeAll()
    }

    private final class Pictures: @unchecked Sendable {
        // @unchecked: written by the reading task, read after it is awaited.
        var read: [PaintablePicture?] = []
    }

    /// `count` 24-pixel images like a new window's, made ahead (the window goes when the test ends).
    @MainActor
    private func imagesMadeAhead(_ count: Int, capacity: Int? = nil) async throws -> DisplayImages {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_widget_realize(window)
        let images = DisplayImages(capacity: capacity ?? count) { gtk_widget_get_window(window) }
        addTeardownBlock { @MainActor in
            images.removeAll()
            gtk_widget_destroy(window)
        }
        images.prepare(count: count, side: 24, scale: 1, perTurn: count)
        try await pump(until: { images.count == count }, "\(count) images were made ahead")
        return images
    }

    /// A cache keeping 24-pixel pictures of the sample photo under `relativePaths`, and the photo's file.
    private func keptPictures(_ relativePaths: [String]) throws -> (ThumbnailCache, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lent-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: sample, toPath: photo)
        let cache = ThumbnailCache(folder: folder.appendingPathComponent("cache"))
        let decoded = try XCTUnwrap(ImageDecoding.squareThumbnail(path: photo, side: 24))
        for relativePath in relativePaths { cache.save(decoded, relativePath: relativePath, side: 24, photo: photo) }
        return (cache, photo)
    }

    private func plainPicture() -> PaintablePicture {
        PaintablePicture(adopting: cairo_image_surface_create(CAIRO_FORMAT_RGB24, 24, 24)!, scale: 1)
    }

    /// The pixel at (x, y) of an image surface, as RGB.
    private func pixel(_ image: OpaquePointer, x: Int, y: Int) -> [UInt8] {
        cairo_surface_flush(image)
        guard let data = cairo_image_surface_get_data(image) else { return [] }
        let offset = y * Int(cairo_image_surface_get_stride(image)) + x * 4
        return [data[offset + 2], data[offset + 1], data[offset]] // xRGB in native (little-endian) order
    }
}

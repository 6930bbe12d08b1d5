import CGtk
import Foundation
import GLibSwift
@testable import TouristUI
import XCTest

/// The album's images like the window's: made ahead while the main loop is idle, holding a copy of a picture,
/// and used again once GTK lets go of them.
final class DisplayImagesTests: XCTestCase {
    @MainActor
    func testImagesAreMadeAheadCopiedIntoAndUsedAgainOnceLetGo() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_widget_realize(window)
        defer { gtk_widget_destroy(window) }
        let images = DisplayImages(capacity: 3) { gtk_widget_get_window(window) }

        images.prepare(count: 2, side: 16, scale: 1, perTurn: 1)
        try await pump(until: { images.count == 2 }, "two images were made ahead, one per idle turn")

        let red = picture(red: 1, green: 0, blue: 0), blue = picture(red: 0, green: 0, blue: 1)
        let first = try XCTUnwrap(images.copy(of: red))
        let second = try XCTUnwrap(images.copy(of: blue))
        XCTAssertNotEqual(first, second, "an image still shown is not handed out again")
        XCTAssertEqual(images.count, 2, "both came from the images made ahead")
        XCTAssertEqual(pixel(first), [255, 0, 0])
        XCTAssertEqual(pixel(second), [0, 0, 255])

        cairo_surface_destroy(first) // GTK lets go of it: the tile showed another photo, or went
        let again = try XCTUnwrap(images.copy(of: blue))
        XCTAssertEqual(again, first, "the image let go of is used again")
        XCTAssertEqual(pixel(again), [0, 0, 255], "with the new picture in it")

        // Past its capacity the pool still copies, into images it does not keep.
        let third = try XCTUnwrap(images.copy(of: red)), fourth = try XCTUnwrap(images.copy(of: red))
        XCTAssertEqual(images.count, 3)
        XCTAssertEqual(pixel(fourth), [255, 0, 0])
        for image in [second, again, third, fourth] { cairo_surface_destroy(image) }

        images.removeAll()
        XCTAssertEqual(images.count, 0)
    }

    @MainActor
    func testWithNoWindowYetThereIsNoCopy() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let images = DisplayImages { nil }
        XCTAssertNil(images.copy(of: picture(red: 0, green: 1, blue: 0)))
        XCTAssertEqual(images.count, 0)
    }

    private func picture(red: Double, green: Double, blue: Double) -> PaintablePicture {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 16, 16)!
        let cr = cairo_create(surface)!
        cairo_set_source_rgb(cr, red, green, blue)
        cairo_paint(cr)
        cairo_destroy(cr)
        return PaintablePicture(adopting: surface, scale: 1)
    }

    /// The middle pixel of an image surface, as RGB.
    private func pixel(_ image: OpaquePointer) -> [UInt8] {
        cairo_surface_flush(image)
        guard let data = cairo_image_surface_get_data(image) else { return [] }
        let offset = 8 * Int(cairo_image_surface_get_stride(image)) + 8 * 4
        return [data[offset + 2], data[offset + 1], data[offset]] // xRGB in native (little-endian) order
    }
}

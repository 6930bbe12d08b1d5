import CGtk
import Foundation
import GLibSwift
import XCTest

/// Pixbufs become cairo image surfaces in memory, off the GTK thread: cairo's format, premultiplied alpha, the scale.
final class ImageSurfacesTests: XCTestCase {
    func testAnOpaquePixbufBecomesAnRGB24ImageWithItsColoursOnAnotherThread() throws {
        let surface = try convertOnAnotherThread(width: 30, height: 20, alpha: false, rgba: 0xC8_32_14_FF, scale: 2)
        defer { cairo_surface_destroy(surface) }
        XCTAssertEqual(cairo_surface_get_type(surface), CAIRO_SURFACE_TYPE_IMAGE)
        XCTAssertEqual(cairo_image_surface_get_format(surface), CAIRO_FORMAT_RGB24)
        XCTAssertEqual(cairo_image_surface_get_width(surface), 30)
        XCTAssertEqual(cairo_image_surface_get_height(surface), 20)
        var x = 0.0, y = 0.0
        cairo_surface_get_device_scale(surface, &x, &y)
        XCTAssertEqual([x, y], [2, 2])
        XCTAssertEqual(try pixel(surface, x: 29, y: 19), [0xC8, 0x32, 0x14])
    }

    func testAlphaIsPremultiplied() throws {
        let surface = try convertOnAnotherThread(width: 4, height: 4, alpha: true, rgba: 0xC8_64_00_80, scale: 1)
        defer { cairo_surface_destroy(surface) }
        XCTAssertEqual(cairo_image_surface_get_format(surface), CAIRO_FORMAT_ARGB32)
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        // ARGB in native (little-endian) order: B, G, R, A; each colour times 0x80/0xFF.
        XCTAssertEqual([data[3], data[2], data[1], data[0]], [0x80, 0x64, 0x32, 0x00])
    }

    /// A one-colour pixbuf converted on a thread of its own.
    private func convertOnAnotherThread(width: Int32, height: Int32, alpha: Bool, rgba: UInt32,
                                        scale: Int32) throws -> OpaquePointer {
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, alpha ? 1 : 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, rgba)
        nonisolated(unsafe) var converted: OpaquePointer?
        nonisolated(unsafe) let source = pixbuf
        let done = expectation(description: "converted")
        Thread.detachNewThread {
            converted = ImageSurfaces.surface(from: source, scale: scale)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return try XCTUnwrap(converted)
    }

    private func pixel(_ surface: OpaquePointer, x: Int, y: Int) throws -> [UInt8] {
        cairo_surface_flush(surface)
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        let offset = y * Int(cairo_image_surface_get_stride(surface)) + x * 4
        return [data[offset + 2], data[offset + 1], data[offset]]
    }
}

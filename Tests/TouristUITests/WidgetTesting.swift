import CGtk
import Foundation
import XCTest

/// What the widget tests share: a folder of their own, running the GTK main loop until something happens, and
/// reading what a widget draws.
extension XCTestCase {
    /// A new empty folder, removed when the test ends.
    func makeTemporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// Runs the main loop (and lets tasks finish) until `condition` holds; fails the test after 10 s.
    @MainActor
    func pump(until condition: @MainActor () throws -> Bool, _ what: String) async throws {
        let deadline = Date().addingTimeInterval(10)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)") }
            while g_main_context_iteration(nil, 0) != 0 {}
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The pixel at (x, y) of `widget` as it draws itself now, as RGB.
    @MainActor
    func drawnPixel(of widget: UnsafeMutablePointer<GtkWidget>, x: Int32, y: Int32) throws -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, gtk_widget_get_allocated_width(widget),
                                                 gtk_widget_get_allocated_height(widget))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        gtk_widget_draw(widget, cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let data = try XCTUnwrap(cairo_image_surface_get_data(surface))
        let offset = Int(y) * Int(cairo_image_surface_get_stride(surface)) + Int(x) * 4
        return [data[offset + 2], data[offset + 1], data[offset]] // xRGB in native (little-endian) order
    }
}

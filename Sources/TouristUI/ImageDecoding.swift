import CGtk
import Foundation
import GLibSwift

/// A decoded image that can cross threads: decoded off the main thread, shown on it.
final class DecodedPixbuf: @unchecked Sendable {
    // @unchecked: the pixbuf is immutable once decoded; only its reference count changes (atomic).
    let pixbuf: OpaquePointer

    init(adopting pixbuf: OpaquePointer) { self.pixbuf = pixbuf }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
}

/// Decoding and scaling photos with GdkPixbuf, which is safe off the main thread for separate images.
public enum ImageDecoding {
    /// GdkPixbuf finds its loader modules on first use, and that first use is not thread-safe:
    /// do it once (Swift runs a static initializer exactly once) before any decoding.
    private static let loadersReady: Bool = {
        let formats = gdk_pixbuf_get_formats()
        g_slist_free(formats)
        return true
    }()

    /// Call on the main thread at start-up; decoding calls it too.
    public static func prepare() {
        _ = loadersReady
    }

    /// Whether `data` decodes as an image; the downloader keeps only bodies that pass.
    public static func isDecodable(_ data: Data) -> Bool {
        prepare()
        guard !data.isEmpty, let loader = gdk_pixbuf_loader_new() else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return false }
            return gdk_pixbuf_loader_write(loader, base, gsize(bytes.count), nil) != 0
        }
        let closed = gdk_pixbuf_loader_close(loader, nil) != 0
        return written && closed && gdk_pixbuf_loader_get_pixbuf(loader) != nil
    }

    /// The image at `path`, scaled and centre-cropped to a `side`×`side` square.
    static func squareThumbnail(path: String, side: Int32) -> DecodedPixbuf? {
        prepare()
        var error: UnsafeMutablePointer<GError>?
        guard let original = gdk_pixbuf_new_from_file(path, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(original)) }
        let width = gdk_pixbuf_get_width(original), height = gdk_pixbuf_get_height(original)
        guard width > 0, height > 0 else { return nil }
        // Scale so the shorter side fills the square, then crop the middle.
        let scale = Double(side) / Double(min(width, height))
        let scaledWidth = max(side, Int32((Double(width) * scale).rounded()))
        let scaledHeight = max(side, Int32((Double(height) * scale).rounded()))
        guard let scaled = gdk_pixbuf_scale_simple(original, scaledWidth, scaledHeight, GDK_INTERP_BILINEAR) else {
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(scaled)) }
        guard let square = gdk_pixbuf_new_subpixbuf(scaled, (scaledWidth - side) / 2, (scaledHeight - side) / 2,
                                                    side, side),
              let copy = gdk_pixbuf_copy(square) else { return nil }
        g_object_unref(UnsafeMutableRawPointer(square))
        return DecodedPixbuf(adopting: copy)
    }
}

import CGtk
import Dispatch

/// Loads gdk-pixbuf's format modules on a background thread at start, so the first uncached (SVG) icon does not
/// load librsvg's on the main loop mid-album; gdk-pixbuf locks its own module loading.
public enum ImageLoaders {
    /// gdk-pixbuf reads its list of modules on first use, and that first use is not thread-safe: done once
    /// (Swift runs a static initializer exactly once), before any thread decodes.
    private static let modulesListed: Bool = {
        g_slist_free(gdk_pixbuf_get_formats())
        return true
    }()

    /// Makes gdk-pixbuf's first use happen now. Call on the main thread at start-up; decoders call it too.
    public static func prepare() {
        _ = modulesListed
    }

    /// Loads the modules for `formats` (gdk-pixbuf's names) on a background thread; unknown formats are skipped.
    /// Call on the main thread: gdk-pixbuf's first use happens here (`prepare`), before the background thread
    /// and GTK's own icon loading can race for it.
    public static func preload(_ formats: [String] = ["svg"]) {
        prepare()
        DispatchQueue.global(qos: .utility).async {
            for format in formats {
                var error: UnsafeMutablePointer<GError>?
                if let loader = gdk_pixbuf_loader_new_with_type(format, &error) {
                    gdk_pixbuf_loader_close(loader, nil) // no data: reports an error, which is expected
                    g_object_unref(UnsafeMutableRawPointer(loader))
                }
                if let error { g_error_free(error) }
            }
        }
    }
}

import CGtk

/// Pango reads the system's font configuration on a thread of its own (FcInit) when its font map
/// is first made, and the first text laid out waits for it. Making the font map as the program
/// starts lets that reading run beside the rest of start-up (the database, the window's widgets)
/// instead of after it: a few milliseconds of a cold start (measured by bench/startup.py).
public enum FontLoading {
    /// Call on the main thread, first thing: GTK uses this thread's default font map later.
    public static func start() {
        _ = pango_cairo_font_map_get_default()
    }
}

import CGtk

/// Pixbufs made into cairo image surfaces in memory, on any thread.
///
/// `gdk_cairo_surface_create_from_pixbuf` is not for that: given no window, GTK 3 makes the surface like the
/// default screen's root window's, through the display connection (on X11, a shared-memory image set up with the
/// X server), which belongs to the GTK thread.
public enum ImageSurfaces {
    /// `pixbuf` in cairo's own format (RGB24 for an opaque pixbuf, premultiplied ARGB32 for one with alpha), with
    /// `scale` device pixels per point. Nil if cairo cannot make it (out of memory).
    public static func surface(from pixbuf: OpaquePointer, scale: Int32 = 1) -> OpaquePointer? {
        let format = gdk_pixbuf_get_has_alpha(pixbuf) != 0 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24
        guard let surface = cairo_image_surface_create(format, gdk_pixbuf_get_width(pixbuf), gdk_pixbuf_get_height(pixbuf))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        _ = paint(pixbuf, onto: surface)
        cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
        return surface
    }

    /// `pixbuf` painted over all of `target`, an image surface; false if cairo failed. With an image surface as its
    /// target, this converts in memory: the similar surface it makes is an image too.
    private static func paint(_ pixbuf: OpaquePointer, onto target: OpaquePointer) -> Bool {
        let cr = cairo_create(target)!
        gdk_cairo_set_source_pixbuf(cr, pixbuf, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        let painted = cairo_status(cr) == CAIRO_STATUS_SUCCESS
        cairo_destroy(cr)
        return painted
    }
}

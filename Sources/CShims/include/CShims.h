// GLib/GTK functions Swift cannot call directly: macros, variadic functions and private libdispatch
// entry points (osm-gps-map's are in COsmGpsMapShims). Every symbol is prefixed `vt_`.
#ifndef VT_CSHIMS_H
#define VT_CSHIMS_H

#include <gtk/gtk.h>
#include <time.h>

// libdispatch's main queue is not drained by gtk_main(): watch its eventfd on a GLib context
// so @MainActor work runs on the GTK thread. Returns the GSource id.
guint vt_main_queue_attach(GMainContext *context);

// GtkBuilder's object lookup returns GObject*; G_TYPE_CHECK casts are macros.
GtkWidget *vt_builder_get_widget(GtkBuilder *builder, const char *name);

// gtk_message_dialog_new() and its secondary-text setter are variadic (printf formats): an alert
// with a bold primary line and plain secondary text, no buttons (the caller adds them).
GtkWidget *vt_message_dialog_new(GtkWindow *parent, GtkMessageType type, const char *primary,
                                 const char *secondary);

// A kept grid picture (KeptPicture.c): the file at `path`, if its modification time is `stamp` and it holds a whole
// width×height cairo image, read into a new image surface; NULL otherwise. Safe on any thread.
cairo_surface_t *vt_kept_picture_read(const char *path, int width, int height, const struct timespec *stamp);
// The same picture's rows read into `data` (`stride` bytes a row, `width`×`height` pixels of `format`), memory the
// caller has ready (an image shared with the display), touching no cairo object: 1 if they were read whole; 0 if the
// picture is of another format (`vt_kept_picture_read` reads it); -1 if there is no good picture (`data` may then be
// half written). Safe on any thread.
int vt_kept_picture_read_into(const char *path, int width, int height, const struct timespec *stamp,
                              cairo_format_t format, unsigned char *data, int stride);
// The header `vt_kept_picture_read` expects before the rows of `surface` (an RGB24 or ARGB32 image, flushed here);
// 0 if the surface cannot be kept.
#define VT_KEPT_HEADER_SIZE 24
int vt_kept_picture_header(cairo_surface_t *surface, unsigned char header[VT_KEPT_HEADER_SIZE]);

#endif

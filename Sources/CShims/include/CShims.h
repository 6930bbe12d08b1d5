// C functions Swift cannot call directly: macros, variadic functions and private
// libdispatch entry points. Every symbol is prefixed `vt_`.
#ifndef VT_CSHIMS_H
#define VT_CSHIMS_H

#include <gtk/gtk.h>
#include <osm-gps-map.h>
#include <time.h>

// libdispatch's main queue is not drained by gtk_main(): watch its eventfd on a GLib context
// so @MainActor work runs on the GTK thread. Returns the GSource id.
guint vt_main_queue_attach(GMainContext *context);

// g_object_new() is variadic: build the map with its construct-only properties, then select the
// custom repo-uri (map-source must be set after construction or repo-uri is ignored).
OsmGpsMap *vt_osm_gps_map_new(const char *repo_uri, const char *tile_cache, const char *user_agent,
                              int min_zoom, int max_zoom);

// g_object_get() is variadic: read the map's centre and zoom in one call.
void vt_osm_gps_map_get_view(OsmGpsMap *map, double *latitude, double *longitude, int *zoom);

// g_object_get() is variadic: the world-pixel coordinate of the map's top-left corner (for exact
// double-precision screen-to-geographic conversion; the map's own API works in float).
void vt_osm_gps_map_get_origin(OsmGpsMap *map, int *map_x, int *map_y);

// g_object_get() is variadic: the number of tiles still being downloaded.
int vt_osm_gps_map_tiles_queued(OsmGpsMap *map);

// meson's -Dflickr_api_key arrives as a C macro; Swift cannot read macros from compiler flags.
const char *vt_build_flickr_api_key(void);

// GtkBuilder's object lookup returns GObject*; G_TYPE_CHECK casts are macros.
GtkWidget *vt_builder_get_widget(GtkBuilder *builder, const char *name);

// GObject types can only be defined with C macros (G_DEFINE_TYPE_WITH_CODE): an OsmGpsMapLayer that
// forwards drawing to Swift. Layers are drawn on every frame, also while the map is being dragged.
typedef void (*VtPinLayerDrawFunc)(OsmGpsMap *map, cairo_t *cr, gpointer user_data);
OsmGpsMapLayer *vt_pin_layer_new(VtPinLayerDrawFunc draw, gpointer user_data, GDestroyNotify destroy);

// gtk_message_dialog_new() and its secondary-text setter are variadic (printf formats): an alert
// with a bold primary line and plain secondary text, no buttons (the caller adds them).
GtkWidget *vt_message_dialog_new(GtkWindow *parent, GtkMessageType type, const char *primary,
                                 const char *secondary);

// g_object_set() is variadic: the app fetches tiles itself (to know when it is offline and to refresh stale
// tiles) and draws them in a layer of its own; osm-gps-map must not download any.
void vt_osm_gps_map_set_auto_download(OsmGpsMap *map, gboolean enabled);

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

#include "CShims.h"

#include <glib-unix.h>
#include <sys/eventfd.h>

// Private libdispatch entry points (exported by libdispatch.so; used by CoreFoundation's run loop).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

#ifndef VT_BUILD_FLICKR_API_KEY
#define VT_BUILD_FLICKR_API_KEY ""
#endif

static gboolean vt_main_queue_ready(gint fd, GIOCondition condition, gpointer user_data) {
    (void)condition;
    (void)user_data;
    eventfd_t value;
    // Reading resets the eventfd; without it the source stays ready and the loop spins.
    (void)eventfd_read(fd, &value);
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

guint vt_main_queue_attach(GMainContext *context) {
    int fd = _dispatch_get_main_queue_handle_4CF();
    GSource *source = g_unix_fd_source_new(fd, G_IO_IN);
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))vt_main_queue_ready, NULL, NULL);
    g_source_set_name(source, "dispatch-main-queue");
    guint id = g_source_attach(source, context);
    g_source_unref(source);
    return id;
}

/* osm-gps-map 1.2 queues its redraw in an idle whose id it forgets when a size change redraws at
 * once; the widget's dispose then cannot remove that idle, which later redraws the disposed map
 * (its freed tile tables: SIGFPE in g_hash_table_lookup) when a window closes right after opening
 * or resizing. "destroy" is emitted at the end of the map's dispose: every main-loop source still
 * calling back with the map would touch a dead widget, so they go with it. */
static void vt_osm_gps_map_destroyed(GtkWidget *map, gpointer unused) {
    (void)unused;
    GSource *source;
    while ((source = g_main_context_find_source_by_user_data(NULL, map)) != NULL)
        g_source_destroy(source);
}

OsmGpsMap *vt_osm_gps_map_new(const char *repo_uri, const char *tile_cache, const char *user_agent,
                              int min_zoom, int max_zoom) {
    OsmGpsMap *map = g_object_new(OSM_TYPE_GPS_MAP,
                                  "repo-uri", repo_uri,
                                  "tile-cache", tile_cache,
                                  "user-agent", user_agent,
                                  "min-zoom", min_zoom,
                                  "max-zoom", max_zoom,
                                  NULL);
    g_object_set(map, "map-source", OSM_GPS_MAP_SOURCE_LAST, NULL);
    g_signal_connect(map, "destroy", G_CALLBACK(vt_osm_gps_map_destroyed), NULL);
    return map;
}

void vt_osm_gps_map_get_view(OsmGpsMap *map, double *latitude, double *longitude, int *zoom) {
    gfloat lat = 0, lon = 0;
    gint z = 0;
    g_object_get(map, "latitude", &lat, "longitude", &lon, "zoom", &z, NULL);
    *latitude = lat;
    *longitude = lon;
    *zoom = z;
}

void vt_osm_gps_map_get_origin(OsmGpsMap *map, int *map_x, int *map_y) {
    gint x = 0, y = 0;
    g_object_get(map, "map-x", &x, "map-y", &y, NULL);
    *map_x = x;
    *map_y = y;
}

int vt_osm_gps_map_tiles_queued(OsmGpsMap *map) {
    gint queued = 0;
    g_object_get(map, "tiles-queued", &queued, NULL);
    return queued;
}

const char *vt_build_flickr_api_key(void) {
    return VT_BUILD_FLICKR_API_KEY;
}

GtkWidget *vt_builder_get_widget(GtkBuilder *builder, const char *name) {
    GObject *object = gtk_builder_get_object(builder, name);
    return object ? GTK_WIDGET(object) : NULL;
}

GtkWidget *vt_message_dialog_new(GtkWindow *parent, GtkMessageType type, const char *primary,
                                 const char *secondary) {
    GtkWidget *dialog = gtk_message_dialog_new(parent, parent ? GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT : 0,
                                               type, GTK_BUTTONS_NONE, "%s", primary);
    if (secondary && secondary[0]) {
        gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", secondary);
    }
    return dialog;
}

void vt_osm_gps_map_set_auto_download(OsmGpsMap *map, gboolean enabled) {
    g_object_set(map, "auto-download", enabled, NULL);
}


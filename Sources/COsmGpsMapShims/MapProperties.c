// The map's GObject properties: g_object_new/get/set are variadic, which Swift cannot call.
#include "COsmGpsMapShims.h"

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

void vt_osm_gps_map_set_auto_download(OsmGpsMap *map, gboolean enabled) {
    g_object_set(map, "auto-download", enabled, NULL);
}

// osm-gps-map functions Swift cannot call directly: variadic property access and a GObject type defined
// with C macros. Every symbol is prefixed `vt_`.
#ifndef VT_OSM_GPS_MAP_SHIMS_H
#define VT_OSM_GPS_MAP_SHIMS_H

#include <osm-gps-map.h>

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

// g_object_set() is variadic: the app fetches tiles itself (to know when it is offline and to refresh stale
// tiles) and draws them in a layer of its own; osm-gps-map must not download any.
void vt_osm_gps_map_set_auto_download(OsmGpsMap *map, gboolean enabled);

// GObject types can only be defined with C macros (G_DEFINE_TYPE_WITH_CODE): an OsmGpsMapLayer that
// forwards drawing to Swift, used for the pins and the tiles. Layers are drawn on every frame, also while
// the map is being dragged. `destroy` releases `user_data` when the layer is finalized.
typedef void (*VtDrawingLayerDrawFunc)(OsmGpsMap *map, cairo_t *cr, gpointer user_data);
OsmGpsMapLayer *vt_drawing_layer_new(VtDrawingLayerDrawFunc draw, gpointer user_data, GDestroyNotify destroy);

#endif

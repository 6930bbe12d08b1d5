/* Floor for start-up: the least a GTK 3 program can do to show an osm-gps-map asking a tile server
 * for tiles. Same window size as Virtual Tourist's first start, same view (20° N, 0°, zoom 2), same
 * tile server; no database, no pins, no Swift. bench/startup.py times it exactly like the app.
 *
 *     bare_map URL-TEMPLATE CACHE-FOLDER
 */
#include <gtk/gtk.h>
#include <osm-gps-map.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        g_printerr("usage: %s URL-TEMPLATE CACHE-FOLDER\n", argv[0]);
        return 2;
    }
    gtk_init(&argc, &argv);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(window), "Bare map");
    gtk_window_set_default_size(GTK_WINDOW(window), 1000, 700);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);

    /* A custom repo-uri takes effect only once map-source is set to LAST after construction. */
    GtkWidget *map = g_object_new(OSM_TYPE_GPS_MAP, "repo-uri", argv[1], "tile-cache", argv[2],
                                  "user-agent", "bench-floor", NULL);
    g_object_set(map, "map-source", OSM_GPS_MAP_SOURCE_LAST, NULL);
    osm_gps_map_set_center_and_zoom(OSM_GPS_MAP(map), 20.0, 0.0, 2);
    gtk_container_add(GTK_CONTAINER(window), map);
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}

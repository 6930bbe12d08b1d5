/* Floor for the frame that shows an album: what GTK 3 itself costs to put a page of photos on screen, with the
 * pictures already in memory. A bare window the app's size, a stack with a plain page where the map would be;
 * a click on it builds a flow box of COUNT tiles (a flow-box child holding an image of SIDE×SIDE pixels, in images
 * shared with the X server made ahead, as the app's are), switches the stack to it and changes the header bar's
 * title, as opening an album does. Prints "ready" once it can be clicked, then, when the frame that drew the page is
 * over (the same moment the app logs "photos painted"), "painted", the milliseconds the click's handler took to
 * build the page and those the frame took (two turns of the main loop: the longest is the least stall a page of
 * COUNT tiles costs), and the moment it says so (seconds of CLOCK_MONOTONIC). No CSS of its own, no accessible names, no tooltips, no action bar: only what any page of
 * COUNT pictures needs.
 *
 *     album_page SIDE COUNT
 */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

static int side, count;
static GtkWidget *window, *stack, *header;
static cairo_surface_t **pictures;
static gboolean opened, reported;
static gint64 build_started, build_ended, frame_started, frame_ended;

static gboolean report_painted(gpointer data) {
    (void)data;
    /* With the moment it is written, on the clock the benchmark reads (CLOCK_MONOTONIC), as the app stamps its log. */
    printf("painted %.3f %.3f %.6f\n", (build_ended - build_started) / 1000.0, (frame_ended - frame_started) / 1000.0,
           g_get_monotonic_time() / 1e6);
    fflush(stdout);
    return G_SOURCE_REMOVE;
}

static void before_paint(GdkFrameClock *clock, gpointer data) {
    (void)clock; (void)data;
    if (opened && !reported) frame_started = g_get_monotonic_time();
}

static void after_paint(GdkFrameClock *clock, gpointer data) {
    (void)clock; (void)data;
    if (!opened || reported) return;
    reported = TRUE;
    frame_ended = g_get_monotonic_time();
    g_timeout_add(0, report_painted, NULL); /* once this frame is over, as the app tells it */
}

static gboolean open_page(GtkWidget *widget, GdkEventButton *event, gpointer data) {
    (void)widget; (void)event; (void)data;
    if (opened) return TRUE;
    opened = TRUE;
    build_started = g_get_monotonic_time();
    GtkWidget *flow = gtk_flow_box_new();
    gtk_flow_box_set_homogeneous(GTK_FLOW_BOX(flow), TRUE);
    gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(flow), GTK_SELECTION_NONE);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(flow), 30);
    gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(flow), 6);
    gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(flow), 6);
    gtk_widget_set_valign(flow, GTK_ALIGN_START);
    for (int i = 0; i < count; i++) {
        GtkWidget *child = gtk_flow_box_child_new();
        GtkWidget *image = gtk_image_new_from_surface(pictures[i]);
        gtk_widget_set_size_request(image, side, side);
        gtk_container_add(GTK_CONTAINER(child), image);
        gtk_flow_box_insert(GTK_FLOW_BOX(flow), child, i);
    }
    GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_container_add(GTK_CONTAINER(scrolled), flow);
    gtk_widget_show_all(scrolled);
    gtk_stack_add_named(GTK_STACK(stack), scrolled, "album");
    gtk_stack_set_visible_child_name(GTK_STACK(stack), "album");
    gtk_header_bar_set_title(GTK_HEADER_BAR(header), "48.85660° N, 2.35220° E");
    gtk_header_bar_set_subtitle(GTK_HEADER_BAR(header), "Photo Album");
    build_ended = g_get_monotonic_time();
    return TRUE;
}

static gboolean make_pictures(gpointer data) {
    (void)data;
    GdkWindow *gdk_window = gtk_widget_get_window(window);
    pictures = g_new0(cairo_surface_t *, count);
    for (int i = 0; i < count; i++) {
        pictures[i] = gdk_window_create_similar_image_surface(gdk_window, CAIRO_FORMAT_RGB24, side, side, 1);
        cairo_t *cr = cairo_create(pictures[i]);
        cairo_set_source_rgb(cr, (i % 5) / 5.0, (i % 3) / 3.0, 0.5);
        cairo_paint(cr);
        cairo_destroy(cr);
    }
    printf("ready\n");
    fflush(stdout);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    gtk_init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: %s SIDE COUNT\n", argv[0]);
        return 2;
    }
    side = atoi(argv[1]);
    count = atoi(argv[2]);
    window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 1000, 700);
    gtk_window_move(GTK_WINDOW(window), 0, 0);
    header = gtk_header_bar_new();
    gtk_header_bar_set_title(GTK_HEADER_BAR(header), "Album page floor");
    gtk_header_bar_set_show_close_button(GTK_HEADER_BAR(header), TRUE);
    gtk_window_set_titlebar(GTK_WINDOW(window), header);
    stack = gtk_stack_new();
    GtkWidget *plain = gtk_event_box_new(); /* where the map would be: a click on it opens the page */
    gtk_widget_add_events(plain, GDK_BUTTON_PRESS_MASK);
    g_signal_connect(plain, "button-press-event", G_CALLBACK(open_page), NULL);
    gtk_stack_add_named(GTK_STACK(stack), plain, "map");
    gtk_container_add(GTK_CONTAINER(window), stack);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    gtk_widget_show_all(window);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    g_signal_connect(clock, "before-paint", G_CALLBACK(before_paint), NULL);
    g_signal_connect_after(clock, "after-paint", G_CALLBACK(after_paint), NULL);
    g_timeout_add(300, make_pictures, NULL); /* ahead, as the app makes its images once the map is up */
    gtk_main();
    return 0;
}

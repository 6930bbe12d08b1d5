/* Floor for opening an album: the same photo files decoded by gdk-pixbuf at the same size the album
 * grid asks for, in a bare loop on the same number of threads, with nothing else around. Prints the
 * wall-clock milliseconds from the first decode started to the last one finished, then the CPU time the
 * decodes took on all threads (user and system).
 *
 *     decode_loop SIDE THREADS FILE...
 *
 * Each file is loaded scaled so that its shorter side is SIDE pixels (gdk-pixbuf's size-prepared
 * scaling, which lets the JPEG decoder scale while it decodes), as the app does.
 */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static int side;

static void size_prepared(GdkPixbufLoader *loader, int width, int height, gpointer data) {
    (void)data;
    if (width <= 0 || height <= 0) return;
    int shorter = width < height ? width : height;
    if (shorter <= side) return;
    gdk_pixbuf_loader_set_size(loader, (int)((gint64)width * side / shorter),
                               (int)((gint64)height * side / shorter));
}

static double cpu_ms(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

static void decode(gpointer file, gpointer failures) {
    gchar *contents = NULL;
    gsize length = 0;
    GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
    g_signal_connect(loader, "size-prepared", G_CALLBACK(size_prepared), NULL);
    gboolean ok = g_file_get_contents(file, &contents, &length, NULL)
        && gdk_pixbuf_loader_write(loader, (const guchar *)contents, length, NULL)
        && gdk_pixbuf_loader_close(loader, NULL)
        && gdk_pixbuf_loader_get_pixbuf(loader) != NULL;
    if (!ok) g_atomic_int_inc((gint *)failures);
    if (!ok) gdk_pixbuf_loader_close(loader, NULL);
    g_object_unref(loader);
    g_free(contents);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s SIDE THREADS FILE...\n", argv[0]);
        return 2;
    }
    side = atoi(argv[1]);
    int threads = atoi(argv[2]);
    gint failures = 0;
    g_slist_free(gdk_pixbuf_get_formats()); /* load the modules once, as the app does at start */
    double cpu_start = cpu_ms();
    gint64 start = g_get_monotonic_time();
    GThreadPool *pool = g_thread_pool_new(decode, &failures, threads, TRUE, NULL);
    for (int i = 3; i < argc; i++) g_thread_pool_push(pool, argv[i], NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
    gint64 end = g_get_monotonic_time();
    printf("%.2f %.2f\n", (end - start) / 1000.0, cpu_ms() - cpu_start);
    if (failures) fprintf(stderr, "%d files did not decode\n", failures);
    return failures ? 1 : 0;
}

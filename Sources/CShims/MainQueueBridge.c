// libdispatch's main queue is not drained by gtk_main(), and the entry points that drain it are private C
// functions Swift cannot declare: watch the queue's eventfd on a GLib context instead.
#include "CShims.h"

#include <glib-unix.h>
#include <sys/eventfd.h>

// Private libdispatch entry points (exported by libdispatch.so; used by CoreFoundation's run loop).
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

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

// GLib/GTK functions Swift cannot call directly: macros, variadic functions and private libdispatch
// entry points (osm-gps-map's are in COsmGpsMapShims). Every symbol is prefixed `vt_`.
#ifndef VT_CSHIMS_H
#define VT_CSHIMS_H

#include <gtk/gtk.h>

// libdispatch's main queue is not drained by gtk_main(): watch its eventfd on a GLib context
// so @MainActor work runs on the GTK thread. Returns the GSource id.
guint vt_main_queue_attach(GMainContext *context);

// gtk_message_dialog_new() and its secondary-text setter are variadic (printf formats): an alert
// with a bold primary line and plain secondary text, no buttons (the caller adds them).
GtkWidget *vt_message_dialog_new(GtkWindow *parent, GtkMessageType type, const char *primary,
                                 const char *secondary);

#endif

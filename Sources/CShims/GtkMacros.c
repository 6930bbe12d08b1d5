// GTK calls Swift cannot make: printf-style constructors are variadic.
#include "CShims.h"

GtkWidget *vt_message_dialog_new(GtkWindow *parent, GtkMessageType type, const char *primary,
                                 const char *secondary) {
    GtkWidget *dialog = gtk_message_dialog_new(parent, parent ? GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT : 0,
                                               type, GTK_BUTTONS_NONE, "%s", primary);
    if (secondary && secondary[0]) {
        gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", secondary);
    }
    return dialog;
}

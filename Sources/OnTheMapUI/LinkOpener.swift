import CGtk
import Foundation
import GLibSwift
import Translations

/// Opens shared links in the user's default browser; only http(s) links are ever opened.
@MainActor
enum LinkOpener {
    static func open(_ url: URL, over window: UnsafeMutablePointer<GtkWidget>?) {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return }
        var error: UnsafeMutablePointer<GError>?
        let windowPointer: UnsafeMutablePointer<GtkWindow>? = window.map { $0.cast() }
        if gtk_show_uri_on_window(windowPointer, url.absoluteString, guint32(GDK_CURRENT_TIME), &error) == 0 {
            // Translators: why a link couldn't be opened, followed by ". Copy the link into your browser instead."
            let reason = error.map { String(cString: $0.pointee.message) } ?? tr("no program opens web links")
            g_clear_error(&error)
            // Translators: %1$@ is a web link; %2$@ why it couldn't be opened, e.g. "no program opens web links".
            let message = formatted(tr("%1$@\n\n%2$@. Copy the link into your browser instead."), url.absoluteString, reason)
            Alert.show(over: window, title: tr("Couldn't open the link"), message: message)
        }
    }
}

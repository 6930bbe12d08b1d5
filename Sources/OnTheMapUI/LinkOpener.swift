import CGtk
import Foundation
import GLibSwift

/// Opens shared links in the user's default browser; only http(s) links are ever opened.
@MainActor
enum LinkOpener {
    static func open(_ url: URL, over window: UnsafeMutablePointer<GtkWidget>?) {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return }
        var error: UnsafeMutablePointer<GError>?
        let windowPointer: UnsafeMutablePointer<GtkWindow>? = window.map { $0.cast() }
        if gtk_show_uri_on_window(windowPointer, url.absoluteString, guint32(GDK_CURRENT_TIME), &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no program opens web links"
            g_clear_error(&error)
            Alert.show(over: window, title: "Couldn't open the link",
                       message: "\(url.absoluteString)\n\n\(reason). Copy the link into your browser instead.")
        }
    }
}

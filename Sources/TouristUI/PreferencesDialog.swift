import CGtk
import FlickrClient
import Foundation
import GLibSwift
import Layouts

/// Preferences: the user's own Flickr API key, kept in their config folder (readable only by them), and their own
/// photos (OwnPhotoPreferences), which apply at once.
@MainActor
enum PreferencesDialog {
    /// - parameter ownPhotos: nil without a database: the "Your Photos" section is hidden.
    static func present(over parent: UnsafeMutablePointer<GtkWidget>?, keyResolver: FlickrAPIKeyResolver,
                        ownPhotos: OwnPhotoLibrary?, onSaved: @escaping @MainActor () -> Void) {
        let layout = Layouts.builder("preferences-dialog")
        let dialog = layout.object("dialog", as: GtkWidget.self) // a toplevel: GTK keeps it once the layout goes
        let entry = layout.object("key-entry", as: GtkWidget.self)
        let errorLabel = layout.object("error-label", as: GtkWidget.self)
        if let parent {
            gtk_window_set_transient_for(dialog.cast(), parent.cast())
            gtk_window_set_modal(dialog.cast(), 1)
        }
        if let saved = keyResolver.savedKey() { gtk_entry_set_text(entry.cast(), saved.value) }
        gtk_widget_set_visible(layout.object("environment-note", as: GtkWidget.self),
                               keyResolver.resolve().source == .environment ? 1 : 0)
        if let ownPhotos {
            _ = OwnPhotoPreferences(layout: layout, library: ownPhotos)
        } else {
            gtk_widget_hide(layout.object("own-photos-section", as: GtkWidget.self))
        }

        dialog.connect(.response) { response in
            guard response == GTK_RESPONSE_ACCEPT.rawValue else {
                gtk_widget_destroy(dialog)
                return
            }
            let text = String(cString: gtk_entry_get_text(entry.cast())).trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                if text.isEmpty { try keyResolver.removeSavedKey() } else { try keyResolver.saveKey(text) }
                gtk_widget_destroy(dialog)
                onSaved()
            } catch {
                gtk_label_set_text(errorLabel.cast(), (error as? FlickrError)?.userMessage ?? error.localizedDescription)
            }
        }
        gtk_widget_show(dialog)
    }
}

import CGtk
import FlickrClient
import Foundation
import GLibSwift
import Translations

/// Preferences: the user's own Flickr API key, kept in their config folder (readable only by them).
@MainActor
enum PreferencesDialog {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>?, keyResolver: FlickrAPIKeyResolver,
                        onSaved: @escaping @MainActor () -> Void) {
        let dialog = gtk_dialog_new()!
        gtk_window_set_title(dialog.cast(), tr("Preferences"))
        gtk_window_set_default_size(dialog.cast(), 480, -1)
        if let parent {
            gtk_window_set_transient_for(dialog.cast(), parent.cast())
            gtk_window_set_modal(dialog.cast(), 1)
        }
        gtk_dialog_add_button(dialog.cast(), tr("_Cancel"), GTK_RESPONSE_CANCEL.rawValue)
        let save = gtk_dialog_add_button(dialog.cast(), tr("_Save"), GTK_RESPONSE_ACCEPT.rawValue)!
        Widgets.addStyleClass(save, "suggested-action")
        gtk_dialog_set_default_response(dialog.cast(), GTK_RESPONSE_ACCEPT.rawValue)

        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        Widgets.setMargins(box, 18)
        let heading = gtk_label_new(nil)!
        gtk_label_set_markup(heading.cast(), Markup.bold(tr("Flickr API Key")))
        gtk_label_set_xalign(heading.cast(), 0)
        let explanation = gtk_label_new(nil)!
        // Translators: Pango markup: keep the <a href="…"> link as it is, translating only its text.
        gtk_label_set_markup(explanation.cast(), tr("Photos come from Flickr, which asks every app for a free API key. <a href=\"https://www.flickr.com/services/apps/create/\">Get a key from Flickr</a> and paste it here. It is kept in your config folder, readable only by you."))
        gtk_label_set_line_wrap(explanation.cast(), 1)
        gtk_label_set_max_width_chars(explanation.cast(), 50)
        gtk_label_set_xalign(explanation.cast(), 0)
        let entry = gtk_entry_new()!
        gtk_entry_set_activates_default(entry.cast(), 1)
        gtk_entry_set_placeholder_text(entry.cast(), tr("Flickr API key"))
        Widgets.setAccessibleName(entry, tr("Flickr API key"))
        if let saved = keyResolver.savedKey() { gtk_entry_set_text(entry.cast(), saved.value) }
        for widget in [heading, explanation, entry] { gtk_container_add(box.container, widget) }
        let resolution = keyResolver.resolve()
        if resolution.source == .environment {
            // Translators: FLICKR_API_KEY is the variable's name: keep it as it is.
            let note = gtk_label_new(tr("The FLICKR_API_KEY environment variable is set; it takes precedence over this key."))!
            gtk_label_set_line_wrap(note.cast(), 1)
            gtk_label_set_xalign(note.cast(), 0)
            Widgets.addStyleClass(note, "dim-label")
            gtk_container_add(box.container, note)
        }
        let errorLabel = gtk_label_new(nil)!
        gtk_label_set_line_wrap(errorLabel.cast(), 1)
        gtk_label_set_xalign(errorLabel.cast(), 0)
        Widgets.addStyleClass(errorLabel, "error")
        gtk_container_add(box.container, errorLabel)
        gtk_container_add(gtk_dialog_get_content_area(dialog.cast()).container, box)

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
        gtk_widget_show_all(dialog)
    }
}

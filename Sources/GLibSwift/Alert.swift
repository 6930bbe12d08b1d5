import CGtk
import CShims
import Foundation
import Translations

/// Modal alerts: a bold title, a sentence under it, and buttons; `done` gets the chosen response
/// (`GTK_RESPONSE_DELETE_EVENT` when closed with Escape or the window manager).
@MainActor
public enum Alert {
    public struct Button {
        public var label: String
        public var response: GtkResponseType
        public var suggested: Bool
        public var destructive: Bool

        public init(label: String, response: GtkResponseType, suggested: Bool = false, destructive: Bool = false) {
            self.label = label
            self.response = response
            self.suggested = suggested
            self.destructive = destructive
        }
    }

    /// Computed, so the label is translated after `Translations.setUp()` whenever it is first used.
    public static var ok: Button { Button(label: tr("OK"), response: GTK_RESPONSE_OK, suggested: true) }

    @discardableResult
    public static func show(over parent: UnsafeMutablePointer<GtkWidget>?, kind: GtkMessageType = GTK_MESSAGE_ERROR,
                     title: String, message: String, buttons: [Button] = [ok],
                     done: @escaping @MainActor (GtkResponseType) -> Void = { _ in }) -> UnsafeMutablePointer<GtkWidget> {
        let parentWindow: UnsafeMutablePointer<GtkWindow>? = parent.map { $0.cast() }
        let dialog = vt_message_dialog_new(parentWindow, kind, title, message)!
        gtk_window_set_title(dialog.cast(), title)
        for button in buttons {
            let widget = gtk_dialog_add_button(dialog.cast(), button.label, button.response.rawValue)!
            if button.suggested { Widgets.addStyleClass(widget, "suggested-action") }
            if button.destructive { Widgets.addStyleClass(widget, "destructive-action") }
        }
        if let last = buttons.last(where: \.suggested) ?? buttons.last {
            gtk_dialog_set_default_response(dialog.cast(), last.response.rawValue)
        }
        dialog.connect(.response) { response in
            gtk_widget_destroy(dialog)
            done(GtkResponseType(rawValue: response))
        }
        gtk_widget_show(dialog)
        return dialog
    }
}

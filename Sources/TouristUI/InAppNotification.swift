import CGtk
import GLibSwift
import Translations

/// A GNOME-style in-app notification that slides down over the content, with an optional action
/// (e.g. "Undo") and a close button, and hides itself after a few seconds.
@MainActor
final class InAppNotification {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let label: UnsafeMutablePointer<GtkWidget>
    private let actionButton: UnsafeMutablePointer<GtkWidget>
    private var action: (@MainActor () -> Void)?
    private var onDismiss: (@MainActor () -> Void)?
    private var timeout: Timeout?

    init() {
        root = gtk_revealer_new()
        lifetime = WidgetLifetime(root)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_START)
        gtk_revealer_set_transition_type(root.cast(), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN)

        let frame = gtk_frame_new(nil)!
        Widgets.addStyleClass(frame, "app-notification")
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        label = gtk_label_new(nil)
        gtk_label_set_line_wrap(label.cast(), 1)
        gtk_label_set_max_width_chars(label.cast(), 60)
        gtk_label_set_xalign(label.cast(), 0)
        actionButton = gtk_button_new_with_label("")
        let closeButton = Widgets.iconButton(icon: "window-close-symbolic", accessibleName: tr("Close Notification"),
                                             tooltip: tr("Close"))
        gtk_button_set_relief(closeButton.cast(), GTK_RELIEF_NONE)
        gtk_box_pack_start(box.cast(), label, 1, 1, 0)
        gtk_box_pack_start(box.cast(), actionButton, 0, 0, 0)
        gtk_box_pack_start(box.cast(), closeButton, 0, 0, 0)
        gtk_container_add(frame.cast(), box)
        gtk_container_add(root.cast(), frame)
        gtk_widget_show_all(frame)

        actionButton.connect(.clicked) { [weak self] in
            guard let self else { return }
            let action = self.action
            self.action = nil
            self.onDismiss = nil // the action was taken: the notification was not merely dismissed
            self.dismiss()
            action?()
        }
        closeButton.connect(.clicked) { [weak self] in self?.dismiss() }
        lifetime.onDestroy { [weak self] in self?.finishPrevious() }
    }

    var isShown: Bool { lifetime.isAlive && gtk_revealer_get_reveal_child(root.cast()) != 0 }
    var message: String { lifetime.isAlive ? String(cString: gtk_label_get_text(label.cast())) : "" }

    /// Shows `message`; `onDismiss` runs when it goes away without its action being taken.
    func show(_ message: String, actionLabel: String? = nil, seconds: UInt32 = 6,
              action: (@MainActor () -> Void)? = nil, onDismiss: (@MainActor () -> Void)? = nil) {
        finishPrevious()
        guard lifetime.isAlive else {
            onDismiss?() // nobody can take the action any more
            return
        }
        gtk_label_set_text(label.cast(), message)
        if let actionLabel, action != nil {
            gtk_button_set_label(actionButton.cast(), actionLabel)
            gtk_widget_show(actionButton)
        } else {
            gtk_widget_hide(actionButton)
        }
        self.action = action
        self.onDismiss = onDismiss
        gtk_revealer_set_reveal_child(root.cast(), 1)
        timeout = Timeout.after(milliseconds: seconds * 1000) { [weak self] in self?.dismiss() }
    }

    /// Ctrl+Z: takes the shown notification's action if it is an undo; false if there is none.
    @discardableResult
    func undo() -> Bool {
        guard isShown, action != nil, gtk_button_get_label(actionButton.cast()).map({ String(cString: $0) }) == tr("Undo")
        else { return false }
        gtk_button_clicked(actionButton.cast())
        return true
    }

    func dismiss() {
        finishPrevious()
        guard lifetime.isAlive else { return }
        gtk_revealer_set_reveal_child(root.cast(), 0)
    }

    private func finishPrevious() {
        timeout?.cancel()
        timeout = nil
        action = nil
        let onDismiss = self.onDismiss
        self.onDismiss = nil
        onDismiss?()
    }
}

import CGtk
import GLibSwift
import Layouts
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
        // The layout is data/ui/in-app-notification.ui; the message and the action's label change per notification.
        let layout = Layouts.builder("in-app-notification")
        root = layout.object("in-app-notification")
        lifetime = WidgetLifetime(root)
        label = layout.object("notification-message")
        actionButton = layout.object("notification-action")
        let closeButton = layout.object("notification-close", as: GtkWidget.self)

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

import CGtk
import Foundation
import GLibSwift

/// An empty state in the GNOME style: a large dimmed icon, a title and a line of explanation.
@MainActor
final class StatusPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let descriptionLabel: UnsafeMutablePointer<GtkWidget>
    private let image: UnsafeMutablePointer<GtkWidget>

    init(icon: String, title: String, description: String) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)
        lifetime = WidgetLifetime(root)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        Widgets.setMargins(root, 36)
        image = gtk_image_new_from_icon_name(icon, GTK_ICON_SIZE_DIALOG)
        gtk_image_set_pixel_size(image.cast(), 128)
        Widgets.addStyleClass(image, "status-page-icon")
        titleLabel = gtk_label_new(title)
        Widgets.addStyleClass(titleLabel, "status-page-title")
        descriptionLabel = gtk_label_new(description)
        gtk_label_set_line_wrap(descriptionLabel.cast(), 1)
        gtk_label_set_justify(descriptionLabel.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(descriptionLabel.cast(), 50)
        for widget in [image, titleLabel, descriptionLabel] {
            gtk_container_add(root.container, widget)
        }
        gtk_widget_show_all(root)
    }

    /// `description` is plain text; web addresses in it become links.
    func update(icon: String? = nil, title: String, description: String) {
        guard lifetime.isAlive else { return }
        if let icon { gtk_image_set_from_icon_name(image.cast(), icon, GTK_ICON_SIZE_DIALOG) }
        gtk_label_set_text(titleLabel.cast(), title)
        gtk_label_set_markup(descriptionLabel.cast(), Self.linkified(description))
    }

    private static func linkified(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        guard let pattern = try? NSRegularExpression(pattern: #"https?://[^\s<]+[^\s<.,;:)]"#) else { return escaped }
        let range = NSRange(escaped.startIndex..., in: escaped)
        escaped = pattern.stringByReplacingMatches(in: escaped, range: range,
                                                   withTemplate: "<a href=\"$0\">$0</a>")
        return escaped
    }
}

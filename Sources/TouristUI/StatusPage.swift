import CGtk
import Foundation
import GLibSwift
import Layouts

/// An empty state in the GNOME style: a large dimmed icon, a title and a line of explanation.
@MainActor
final class StatusPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let titleLabel: UnsafeMutablePointer<GtkWidget>
    private let descriptionLabel: UnsafeMutablePointer<GtkWidget>
    private let image: UnsafeMutablePointer<GtkWidget>

    /// Its layout is data/ui/status-page.ui; `root` goes into the page's slot.
    init(icon: String, title: String, description: String) {
        let layout = Layouts.builder("status-page")
        root = layout.object("status-page")
        lifetime = WidgetLifetime(root)
        image = layout.object("icon")
        titleLabel = layout.object("title")
        descriptionLabel = layout.object("description")
        gtk_image_set_from_icon_name(image.cast(), icon, GTK_ICON_SIZE_DIALOG)
        gtk_label_set_text(titleLabel.cast(), title)
        gtk_label_set_text(descriptionLabel.cast(), description)
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

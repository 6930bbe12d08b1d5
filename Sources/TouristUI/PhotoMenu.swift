import CGtk
import Foundation
import GLibSwift
import TouristStore
import Translations

/// The menu of a photo (secondary click, the Menu key or Shift+F10): view it larger, who took it,
/// and a link to its page on Flickr.
@MainActor
final class PhotoMenu {
    private struct Menu {
        let root: UnsafeMutablePointer<GtkWidget>
        let ownerItem: UnsafeMutablePointer<GtkWidget>
        let lifetime: WidgetLifetime
    }

    /// Made at the first popup, attached to the widget it pops up over and destroyed with it.
    private var menu: Menu?
    private var photo: Photo?
    /// "View Larger" was chosen for this photo.
    var onView: ((Photo) -> Void)?

    /// At the pointer for a click (`event`), else under `tile` (the keyboard's way).
    func popup(for photo: Photo, event: UnsafeMutablePointer<GdkEvent>?, over widget: UnsafeMutablePointer<GtkWidget>,
               tile: UnsafeMutablePointer<GtkWidget>) {
        let menu = self.menu ?? makeMenu(attachedTo: widget)
        guard menu.lifetime.isAlive else { return }
        self.photo = photo
        let owner = photo.ownerName ?? photo.ownerId
        gtk_menu_item_set_label(menu.ownerItem.cast(), owner.map {
            // Translators: in a photo's menu; %@ is the photographer's Flickr name.
            formatted(tr("Photo by %@"), $0)
        } ?? tr("Photo by unknown"))
        if let event {
            gtk_menu_popup_at_pointer(menu.root.cast(), event)
        } else {
            gtk_menu_popup_at_widget(menu.root.cast(), tile, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, nil)
            gtk_menu_shell_select_first(menu.root.cast(), 0)
        }
    }

    private func makeMenu(attachedTo widget: UnsafeMutablePointer<GtkWidget>) -> Menu {
        let root = gtk_menu_new()!
        let view = gtk_menu_item_new_with_mnemonic(tr("_View Larger"))!
        let ownerItem = gtk_menu_item_new_with_label("")!
        gtk_widget_set_sensitive(ownerItem, 0)
        let open = gtk_menu_item_new_with_mnemonic(tr("_Open on Flickr"))!
        gtk_menu_shell_append(root.cast(), view)
        gtk_menu_shell_append(root.cast(), gtk_separator_menu_item_new())
        gtk_menu_shell_append(root.cast(), ownerItem)
        gtk_menu_shell_append(root.cast(), open)
        gtk_widget_show_all(root)
        view.connect(.activate) { [weak self] in
            guard let self, let photo = self.photo else { return }
            self.onView?(photo)
        }
        open.connect(.activate) { [weak self, root] in
            guard let self, let url = self.photo.flatMap(Self.pageURL(of:)) else { return }
            let parent = gtk_menu_get_attach_widget(root.cast()).flatMap { gtk_widget_get_toplevel($0) }
            gtk_show_uri_on_window(parent?.cast(), url, guint32(GDK_CURRENT_TIME), nil)
        }
        let menu = Menu(root: root, ownerItem: ownerItem, lifetime: WidgetLifetime(root))
        gtk_menu_attach_to_widget(root.cast(), widget, nil)
        menu.lifetime.destroy(with: widget)
        self.menu = menu
        return menu
    }

    /// Flickr's terms: every photo links back to its page.
    static func pageURL(of photo: Photo) -> String? {
        guard let owner = photo.ownerId, !owner.isEmpty else { return nil }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))
        let encodedOwner = owner.addingPercentEncoding(withAllowedCharacters: allowed) ?? owner
        let encodedID = photo.flickrId.addingPercentEncoding(withAllowedCharacters: allowed) ?? photo.flickrId
        return "https://www.flickr.com/photos/\(encodedOwner)/\(encodedID)"
    }
}

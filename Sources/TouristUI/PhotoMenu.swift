import CGtk
import Foundation
import GLibSwift
import TouristStore

/// The menu of a photo (secondary click, the Menu key or Shift+F10): view it larger, who took it,
/// and a link to its page on Flickr.
@MainActor
final class PhotoMenu {
    private let menu: UnsafeMutablePointer<GtkWidget>
    private let ownerItem: UnsafeMutablePointer<GtkWidget>
    private var photo: Photo?
    /// "View Larger" was chosen for this photo.
    var onView: ((Photo) -> Void)?

    init() {
        menu = gtk_menu_new()
        let view = gtk_menu_item_new_with_mnemonic("_View Larger")!
        ownerItem = gtk_menu_item_new_with_label("")
        gtk_widget_set_sensitive(ownerItem, 0)
        let open = gtk_menu_item_new_with_mnemonic("_Open on Flickr")!
        gtk_menu_shell_append(menu.cast(), view)
        gtk_menu_shell_append(menu.cast(), gtk_separator_menu_item_new())
        gtk_menu_shell_append(menu.cast(), ownerItem)
        gtk_menu_shell_append(menu.cast(), open)
        gtk_widget_show_all(menu)
        view.connect(.activate) { [weak self] in
            guard let self, let photo = self.photo else { return }
            self.onView?(photo)
        }
        open.connect(.activate) { [weak self] in
            guard let self, let url = self.photo.flatMap(Self.pageURL(of:)) else { return }
            let parent = gtk_menu_get_attach_widget(self.menu.cast()).flatMap { gtk_widget_get_toplevel($0) }
            gtk_show_uri_on_window(parent?.cast(), url, guint32(GDK_CURRENT_TIME), nil)
        }
    }

    /// At the pointer for a click (`event`), else under `tile` (the keyboard's way).
    func popup(for photo: Photo, event: UnsafeMutablePointer<GdkEvent>?, over widget: UnsafeMutablePointer<GtkWidget>,
               tile: UnsafeMutablePointer<GtkWidget>) {
        self.photo = photo
        gtk_menu_item_set_label(ownerItem.cast(), "Photo by \(photo.ownerName ?? photo.ownerId ?? "unknown")")
        if gtk_menu_get_attach_widget(menu.cast()) == nil { gtk_menu_attach_to_widget(menu.cast(), widget, nil) }
        if let event {
            gtk_menu_popup_at_pointer(menu.cast(), event)
        } else {
            gtk_menu_popup_at_widget(menu.cast(), tile, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, nil)
            gtk_menu_shell_select_first(menu.cast(), 0)
        }
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

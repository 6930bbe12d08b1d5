import CGtk
import Foundation
import GLibSwift
import Translations

/// The window's title bar: the map's header bar (My Places, the search, the menu) and the album's (Back, the
/// place's name, the menu), both made at start-up, one shown at a time: switching bars costs an album's opening frame
/// no restyling of the header's widgets.
@MainActor
final class WindowHeader {
    /// The title bar, for `gtk_window_set_titlebar`.
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let mapBar: UnsafeMutablePointer<GtkWidget>
    private let albumBar: UnsafeMutablePointer<GtkWidget>
    private var albumTitle: (title: String, subtitle: String?)?

    /// - parameter makeMenuButton: the main menu's button, made once for each bar.
    init(appName: String, makeMenuButton: () -> UnsafeMutablePointer<GtkWidget>) {
        mapBar = Self.makeBar(title: appName, menuButton: makeMenuButton(),
                              first: (icon: "view-list-symbolic", name: tr("My Places"), tooltip: tr("My Places (F9)"),
                                      action: "win.places"))
        albumBar = Self.makeBar(title: appName, menuButton: makeMenuButton(),
                                first: (icon: "go-previous-symbolic", name: tr("Back"), tooltip: tr("Back to the Map (Alt+←)"),
                                        action: "win.back"))
        root = gtk_stack_new()
        lifetime = WidgetLifetime(root)
        gtk_stack_set_transition_type(root.cast(), GTK_STACK_TRANSITION_TYPE_NONE)
        gtk_stack_add_named(root.cast(), mapBar, "map")
        gtk_stack_add_named(root.cast(), albumBar, "album")
        gtk_widget_show_all(root)
        gtk_stack_set_visible_child(root.cast(), mapBar)
    }

    /// A header bar with the window's buttons, `first` at its start (a button for an action) and the menu at its end.
    private static func makeBar(title: String, menuButton: UnsafeMutablePointer<GtkWidget>,
                                first: (icon: String, name: String, tooltip: String, action: String))
        -> UnsafeMutablePointer<GtkWidget> {
        let bar = gtk_header_bar_new()!
        gtk_header_bar_set_show_close_button(bar.cast(), 1)
        gtk_header_bar_set_title(bar.cast(), title)
        let button = Widgets.iconButton(icon: first.icon, accessibleName: first.name, tooltip: first.tooltip)
        gtk_actionable_set_action_name(OpaquePointer(button), first.action)
        gtk_header_bar_pack_start(bar.cast(), button)
        gtk_header_bar_pack_end(bar.cast(), menuButton)
        return bar
    }

    /// The search entry goes at the end of the map's bar.
    func addToMapBar(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard lifetime.isAlive else { return }
        gtk_header_bar_pack_end(mapBar.cast(), widget)
        gtk_widget_show(widget)
    }

    /// The album's bar shows this title from now on; set again unchanged, it costs the window no new layout.
    func setAlbumTitle(_ title: String, subtitle: String?) {
        guard lifetime.isAlive else { return }
        if let albumTitle, albumTitle.title == title, albumTitle.subtitle == subtitle { return }
        albumTitle = (title, subtitle)
        gtk_header_bar_set_title(albumBar.cast(), title)
        gtk_header_bar_set_subtitle(albumBar.cast(), subtitle)
    }

    func showAlbumBar() {
        guard lifetime.isAlive else { return }
        gtk_stack_set_visible_child(root.cast(), albumBar)
    }

    func showMapBar() {
        guard lifetime.isAlive else { return }
        gtk_stack_set_visible_child(root.cast(), mapBar)
    }
}

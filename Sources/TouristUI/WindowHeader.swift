import CGtk
import Foundation
import GLibSwift

/// The window's title bar: the map's header bar (My Places, the search, the menu) and the album's (Back, the
/// place's name, the menu), both made at start-up, one shown at a time.
///
/// With one header bar changed for each page (a new title, Back shown, the search hidden), an album's opening frame
/// measured and restyled the header's widgets. Here it switches which bar is shown and sets the album's title, and
/// the album's title is changed only when it differs.
@MainActor
final class WindowHeader {
    /// The title bar, for `gtk_window_set_titlebar`.
    let root: UnsafeMutablePointer<GtkWidget>
    private let mapBar: UnsafeMutablePointer<GtkWidget>
    private let albumBar: UnsafeMutablePointer<GtkWidget>
    private var albumTitle: (title: String, subtitle: String?)?

    /// - parameter makeMenuButton: the main menu's button, made once for each bar.
    init(appName: String, makeMenuButton: () -> UnsafeMutablePointer<GtkWidget>) {
        mapBar = Self.makeBar(title: appName, menuButton: makeMenuButton(),
                              first: (icon: "view-list-symbolic", name: "My Places", tooltip: "My Places (F9)",
                                      action: "win.places"))
        albumBar = Self.makeBar(title: appName, menuButton: makeMenuButton(),
                                first: (icon: "go-previous-symbolic", name: "Back", tooltip: "Back to the Map (Alt+←)",
                                        action: "win.back"))
        root = gtk_stack_new()
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

    /// Realizes the album's bar ahead, hidden (its buttons' windows made): the album's opening frame then only maps it
    /// (0.7 ms less in that frame, the first time).
    func prepareAlbumBar() {
        Widgets.realizeTree(albumBar)
    }

    /// The search entry goes at the end of the map's bar.
    func addToMapBar(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_header_bar_pack_end(mapBar.cast(), widget)
        gtk_widget_show(widget)
    }

    /// The album's bar shows this title from now on; set again unchanged (the same album reopened, or its name
    /// looked up again), it costs the window no new layout.
    func setAlbumTitle(_ title: String, subtitle: String?) {
        if let albumTitle, albumTitle.title == title, albumTitle.subtitle == subtitle { return }
        albumTitle = (title, subtitle)
        gtk_header_bar_set_title(albumBar.cast(), title)
        gtk_header_bar_set_subtitle(albumBar.cast(), subtitle)
    }

    func showAlbumBar() {
        gtk_stack_set_visible_child(root.cast(), albumBar)
    }

    func showMapBar() {
        gtk_stack_set_visible_child(root.cast(), mapBar)
    }
}

import CGtk
import Foundation
import GLibSwift

/// The window's title bar (main-window.ui's "title-bar"): the map's header bar (My Places, the search, the menu) and
/// the album's (Back, the place's name, the menu), one shown at a time.
@MainActor
final class WindowHeader {
    private let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let mapBar: UnsafeMutablePointer<GtkWidget>
    private let albumBar: UnsafeMutablePointer<GtkWidget>
    private var albumTitle: (title: String, subtitle: String?)?

    /// - parameter layout: the main window's layout, which already made the bars the window's title bar.
    init(layout: Builder) {
        root = layout.object("title-bar")
        lifetime = WidgetLifetime(root)
        mapBar = layout.object("map-bar")
        albumBar = layout.object("album-bar")
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

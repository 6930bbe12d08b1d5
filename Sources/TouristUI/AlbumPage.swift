import CGtk
import GLibSwift

/// The photo album of one pin. The header bar names the pin; the grid of photos fills this page.
@MainActor
final class AlbumPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let emptyState: StatusPage
    private(set) var pinID: Int64?
    private(set) var title = ""

    init() {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        emptyState = StatusPage(icon: "image-x-generic-symbolic", title: "No Photos Yet",
                                description: "Photos taken near this place will appear here.")
        gtk_widget_set_vexpand(emptyState.root, 1)
        gtk_container_add(root.container, emptyState.root)
        gtk_widget_show_all(root)
    }

    func show(pinID: Int64, latitude: Double, longitude: Double) {
        self.pinID = pinID
        title = CoordinateFormat.string(latitude: latitude, longitude: longitude)
    }
}

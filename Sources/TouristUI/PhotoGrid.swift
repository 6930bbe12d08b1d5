import CGtk
import Foundation
import GLibSwift
import TouristAlbums
import TouristStore
import Translations

/// The album's grid of photo tiles, kept in line with the album, and its ways in: a click (the
/// product's promise: click a photo to remove it), and the keyboard — arrows move, Enter or Space
/// open the viewer, Delete removes, Home and End go to the first and last photo, the Menu key (or
/// Shift+F10) opens the photo's menu.
@MainActor
final class PhotoGrid {
    /// The tiles' container; the album page puts it into its scrolled area.
    let flowBox: UnsafeMutablePointer<GtkWidget>
    private(set) var tiles: [Int64: PhotoTile] = [:]
    private let pictures: AlbumPictures
    /// After a tile is removed by the keyboard, its place keeps the focus (the next photo).
    private var focusIndexAfterRemoval: Int?
    /// The album was opened: the first photo takes the focus as soon as there is one.
    private var focusFirstWhenFilled = false

    /// A click on a tile (pointer activation).
    var onClicked: ((PhotoTile) -> Void)?
    /// Enter or Space on a tile: view it.
    var onOpen: ((PhotoTile) -> Void)?
    /// Delete on a tile.
    var onDelete: ((PhotoTile) -> Void)?
    /// A secondary click (with its event) or the Menu key (no event) on a tile.
    var onMenu: ((PhotoTile, UnsafeMutablePointer<GdkEvent>?) -> Void)?
    /// A tile shows its photo (and where its picture came from).
    var onShown: ((AlbumPicture.Origin) -> Void)?
    /// The frame that drew the grid after photos were shown is over: they are on the screen (benchmark, tests).
    var onPainted: (() -> Void)?
    private var shownSincePaint = false
    private let lifetime: WidgetLifetime

    init(pictures: AlbumPictures) {
        self.pictures = pictures
        let flowBox = Self.makeFlowBox(accessibleName: tr("Photos"))
        self.flowBox = flowBox
        lifetime = WidgetLifetime(flowBox)

        flowBox.connect(.childActivated) { [weak self] child in
            guard let self, let tile = self.tile(for: child) else { return }
            self.onClicked?(tile)
        }
        flowBox.connect(.draw, after: true) { [weak self] _ in
            if let self, self.shownSincePaint {
                self.shownSincePaint = false
                // Told when this frame is over (the rest of the window drawn and sent), not halfway through it.
                Timeout.after(milliseconds: 0) { [weak self] in self?.onPainted?() }
            }
            return false
        }
        flowBox.connect(.buttonPress) { [weak self] event in self?.buttonPressed(event) ?? false }
        // Before the flow box's own key bindings, which would activate (that is, delete) on Enter.
        flowBox.connect(.keyPress) { [weak self] event in self?.keyPressed(event) ?? false }
    }

    /// A flow box of photo tiles as albums lay them out: squares in rows, a click activates, nothing is selected.
    static func makeFlowBox(accessibleName: String) -> UnsafeMutablePointer<GtkWidget> {
        let flowBox = gtk_flow_box_new()!
        gtk_flow_box_set_homogeneous(flowBox.cast(), 1)
        gtk_flow_box_set_selection_mode(flowBox.cast(), GTK_SELECTION_NONE)
        gtk_flow_box_set_activate_on_single_click(flowBox.cast(), 1)
        gtk_flow_box_set_max_children_per_line(flowBox.cast(), 30)
        gtk_flow_box_set_min_children_per_line(flowBox.cast(), 2)
        gtk_flow_box_set_row_spacing(flowBox.cast(), 6)
        gtk_flow_box_set_column_spacing(flowBox.cast(), 6)
        gtk_widget_set_valign(flowBox, GTK_ALIGN_START)
        Widgets.setMargins(flowBox, 12)
        Widgets.setAccessibleName(flowBox, accessibleName)
        return flowBox
    }

    var count: Int { tiles.count }
    var shownCount: Int { tiles.values.filter(\.isShown).count }

    /// The first photo takes the keyboard focus now, or once the album has one.
    func focusFirstPhoto() {
        focusFirstWhenFilled = true
        applyPendingFocus()
    }

    /// Brings the grid in line with the album: removed photos go (the rest flow up), new ones come
    /// in at their place as placeholders, and each tile shows its photo once its file is there: at once if
    /// `pictures` (by photo file, read with the album) has its picture, else once `AlbumPictures` has it.
    func sync(_ photos: [Photo], failed: Set<Int64>, pictures: [String: AlbumPicture] = [:]) {
        let ids = Set(photos.compactMap(\.id))
        for (id, tile) in tiles where !ids.contains(id) {
            if gtk_widget_has_focus(tile.child) != 0 && focusIndexAfterRemoval == nil {
                focusIndexAfterRemoval = Int(gtk_flow_box_child_get_index(tile.child.cast()))
            }
            gtk_widget_destroy(tile.child)
            tiles.removeValue(forKey: id)
        }
        for (index, photo) in photos.enumerated() {
            guard let id = photo.id else { continue }
            let tile: PhotoTile
            if let existing = tiles[id] {
                tile = existing
                if gtk_flow_box_child_get_index(tile.child.cast()) != Int32(index) {
                    g_object_ref(UnsafeMutableRawPointer(tile.child))
                    gtk_container_remove(flowBox.container, tile.child)
                    gtk_flow_box_insert(flowBox.cast(), tile.child, Int32(index))
                    g_object_unref(UnsafeMutableRawPointer(tile.child))
                }
            } else {
                tile = PhotoTile(photo: photo)
                tiles[id] = tile
                gtk_flow_box_insert(flowBox.cast(), tile.child, Int32(index))
            }
            guard let path = tile.update(photo, failed: failed.contains(id)) else { continue }
            if let picture = pictures[path] {
                show(picture, in: tile, for: path, fade: false)
            } else {
                load(path, into: tile)
            }
        }
        applyPendingFocus()
    }

    /// Asks for the picture of a photo that came after its album was read (a download, a retry).
    private func load(_ relativePath: String, into tile: PhotoTile) {
        let scale = gtk_widget_get_scale_factor(flowBox)
        Task { [weak self, weak tile, pictures] in
            let picture = await pictures.picture(of: relativePath, side: PhotoTile.side * scale, scale: scale)
            guard let self, let tile else { return }
            if let picture {
                self.show(picture, in: tile, for: relativePath, fade: picture.origin == .download)
            } else {
                tile.show(nil, for: relativePath, fade: false) // "Click to retry"
            }
        }
    }

    private func show(_ picture: AlbumPicture, in tile: PhotoTile, for relativePath: String, fade: Bool) {
        guard tile.show(picture.picture, for: relativePath, fade: fade) else { return }
        shownSincePaint = true
        onShown?(picture.origin)
    }

    /// Remembers which place should keep the focus when `tile` (focused) goes.
    func willRemove(_ tile: PhotoTile) {
        focusIndexAfterRemoval = Int(gtk_flow_box_child_get_index(tile.child.cast()))
    }

    private func applyPendingFocus() {
        guard !tiles.isEmpty else { return }
        let index: Int
        if let pending = focusIndexAfterRemoval {
            index = min(pending, tiles.count - 1)
        } else if focusFirstWhenFilled {
            index = 0
        } else {
            return
        }
        focusIndexAfterRemoval = nil
        focusFirstWhenFilled = false
        focus(at: index)
    }

    private func focus(at index: Int) {
        if let child = gtk_flow_box_get_child_at_index(flowBox.cast(), Int32(index)) {
            gtk_widget_grab_focus(child.widget)
        }
    }

    func tile(for child: UnsafeMutableRawPointer?) -> PhotoTile? {
        guard let child else { return nil }
        return tiles.values.first { UnsafeMutableRawPointer($0.child) == child }
    }

    private var focusedTile: PhotoTile? {
        tiles.values.first { gtk_widget_has_focus($0.child) != 0 }
    }

    private func keyPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let key = event.pointee.key
        let modifiers = key.state & (GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        guard let tile = focusedTile else { return false }
        switch Int32(key.keyval) {
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter, GDK_KEY_space, GDK_KEY_KP_Space:
            guard modifiers == 0 else { return false }
            onOpen?(tile)
        case GDK_KEY_Delete, GDK_KEY_KP_Delete:
            guard modifiers == 0 else { return false }
            onDelete?(tile)
        case GDK_KEY_Home, GDK_KEY_KP_Home, GDK_KEY_End, GDK_KEY_KP_End:
            guard modifiers == 0 else { return false }
            let home = key.keyval == GDK_KEY_Home || key.keyval == GDK_KEY_KP_Home
            focus(at: home ? 0 : tiles.count - 1)
        case GDK_KEY_Menu:
            onMenu?(tile, nil)
        case GDK_KEY_F10 where modifiers == GDK_SHIFT_MASK.rawValue:
            onMenu?(tile, nil)
        default:
            return false
        }
        return true
    }

    private func buttonPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let button = event.pointee.button
        guard button.type == GDK_BUTTON_PRESS, button.button == 3,
              let child = gtk_flow_box_get_child_at_pos(flowBox.cast(), Int32(button.x), Int32(button.y)),
              let tile = tile(for: UnsafeMutableRawPointer(child)) else { return false }
        onMenu?(tile, event)
        return true
    }
}

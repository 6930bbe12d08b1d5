import CGtk
import Foundation
import GLibSwift
import TouristStore
import Translations

/// One square in the album grid: a placeholder until its photo arrives, then the photo; an error
/// tile (click to retry) if its download failed.
@MainActor
final class PhotoTile {
    nonisolated static let side: Int32 = 150

    enum State: Equatable {
        case placeholder
        case loading(path: String)
        case shown(path: String)
        case failed
    }

    let child: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let image: UnsafeMutablePointer<GtkWidget>
    /// Keeps `image` while the error view stands in its place.
    private let imageLifetime: WidgetLifetime
    /// "Click to retry": made the first time the tile fails (most never do), in the tile instead of `image`.
    private var failedView: UnsafeMutablePointer<GtkWidget>?
    private(set) var photo: Photo
    private(set) var state = State.placeholder
    private var shownDescription: (name: String, tooltip: String)?

    /// Shows nothing until the first `update`. The placeholder is the tile's own background (a still, plain square:
    /// thirty spinners would repaint the grid every frame while the album fills); the photo fades in over it by CSS
    /// transitions (Stylesheet).
    init(photo: Photo) {
        self.photo = photo
        child = gtk_flow_box_child_new()!
        Widgets.addStyleClass(child, "photo-tile")
        Widgets.addStyleClass(child, "photo-placeholder")
        image = gtk_image_new()!
        gtk_widget_set_size_request(image, PhotoTile.side, PhotoTile.side)
        gtk_container_add(child.container, image)
        gtk_widget_show_all(child)
        lifetime = WidgetLifetime(child)
        imageLifetime = WidgetLifetime(image)
    }

    /// Puts `view` in the tile (the photo, or the error view), in place of the other.
    private func place(_ view: UnsafeMutablePointer<GtkWidget>) {
        let current = gtk_bin_get_child(child.cast())
        guard current != view else { return }
        if let current { gtk_container_remove(child.container, current) } // `image` is kept by `imageLifetime`
        gtk_container_add(child.container, view)
    }

    private func showFailed() {
        let failedView = self.failedView ?? {
            let failedBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
            gtk_widget_set_valign(failedBox, GTK_ALIGN_CENTER)
            gtk_widget_set_size_request(failedBox, Self.side, Self.side)
            let failedIcon = gtk_image_new_from_icon_name("image-missing-symbolic", GTK_ICON_SIZE_DND)!
            let failedLabel = gtk_label_new(tr("Click to retry"))!
            Widgets.addStyleClass(failedLabel, "dim-label")
            gtk_container_add(failedBox.container, failedIcon)
            gtk_container_add(failedBox.container, failedLabel)
            gtk_widget_show_all(failedBox)
            g_object_ref_sink(UnsafeMutableRawPointer(failedBox)) // kept while the photo is in its place
            lifetime.onDestroy { g_object_unref(UnsafeMutableRawPointer(failedBox)) }
            self.failedView = failedBox
            return failedBox
        }()
        setPlaceholderLook(false, fade: false)
        place(failedView)
    }

    /// The placeholder's square, or the photo (which fades in over it when `fade` and the tile is on screen).
    private func setPlaceholderLook(_ placeholder: Bool, fade: Bool) {
        let style = gtk_widget_get_style_context(child)
        if fade {
            gtk_style_context_remove_class(style, "instant")
        } else {
            gtk_style_context_add_class(style, "instant")
        }
        if placeholder {
            gtk_style_context_add_class(style, "photo-placeholder")
        } else {
            gtk_style_context_remove_class(style, "photo-placeholder")
        }
    }

    /// Follows `photo`; returns the file whose picture the tile now waits for (`show`), if it needs one.
    @discardableResult
    func update(_ photo: Photo, failed: Bool) -> String? {
        self.photo = photo
        describe(failed: failed)
        if let path = photo.filePath {
            switch state {
            case .loading(let current) where current == path, .shown(let current) where current == path:
                return nil
            default:
                state = .loading(path: path)
                showPlaceholder()
                return path
            }
        } else if failed {
            state = .failed
            showFailed()
        } else {
            state = .placeholder
            showPlaceholder()
        }
        return nil
    }

    var isShown: Bool {
        if case .shown = state { return true }
        return false
    }

    private func showPlaceholder() {
        gtk_image_clear(image.cast())
        setPlaceholderLook(true, fade: false)
        place(image)
    }

    /// Shows `picture` as the photo of the file at `relativePath`, or "Click to retry" if there is none (the file
    /// does not decode); false if the tile has moved on to another file since. `fade`: a photo that arrives fades in
    /// over its placeholder; an album opened shows its photos at once.
    @discardableResult
    func show(_ picture: PaintablePicture?, for relativePath: String, fade: Bool) -> Bool {
        guard lifetime.isAlive, state == .loading(path: relativePath) else { return false }
        guard let picture else {
            state = .failed
            describe(failed: true)
            showFailed()
            return false
        }
        gtk_image_set_from_surface(image.cast(), picture.surface)
        state = .shown(path: relativePath)
        setPlaceholderLook(false, fade: fade)
        place(image)
        return true
    }

    /// The tile's accessible name and tooltip follow its photo.
    private func describe(failed: Bool) {
        // The grid re-renders on every photo that arrives: only a real change reaches GTK (and,
        // for the name, every screen reader listening on the bus).
        let description = (name: accessibleName(failed: failed), tooltip: tooltip(failed: failed))
        if let shown = shownDescription, shown == description { return }
        shownDescription = description
        Widgets.setAccessibleName(child, description.name)
        gtk_widget_set_tooltip_text(child, description.tooltip)
    }

    /// `failed`: its download failed, or its file does not decode; either way a click retries it.
    private func accessibleName(failed: Bool) -> String {
        let title = (photo.title?.isEmpty == false) ? photo.title! : tr("Untitled photo")
        // Translators: a tile's name for screen readers; %@ is the photo's title.
        if failed { return formatted(tr("%@: download failed"), title) }
        guard photo.filePath != nil else { return tr("Photo loading") }
        guard let owner = photo.ownerName else {
            // Translators: a tile's name for screen readers; %@ is the photo's title.
            return formatted(tr("%@, by unknown"), title)
        }
        // Translators: a tile's name for screen readers; %1$@ is the photo's title, %2$@ its photographer.
        return formatted(tr("%1$@, by %2$@"), title, owner)
    }

    private func tooltip(failed: Bool) -> String {
        if failed { return tr("This photo could not be downloaded. Click to try again.") }
        let title = (photo.title?.isEmpty == false) ? photo.title! : tr("Untitled")
        guard let owner = photo.ownerName else {
            // Translators: a photo's tooltip; %@ is its title.
            return formatted(tr("%@\nby unknown on Flickr\nClick to remove it from the album; Enter or right-click to view it larger"), title)
        }
        // Translators: a photo's tooltip; %1$@ is its title, %2$@ its photographer's Flickr name.
        return formatted(tr("%1$@\nby %2$@ on Flickr\nClick to remove it from the album; Enter or right-click to view it larger"), title, owner)
    }
}

import CGtk
import FlickrClient
import Foundation
import GLibSwift
import TouristStore

/// One square in the album grid: a placeholder until its photo arrives, then the photo; an error
/// tile (click to retry) if its download failed.
@MainActor
final class PhotoTile {
    nonisolated static let side: Int32 = 150

    /// Where a shown photo's picture came from.
    enum Source: CustomStringConvertible, Sendable {
        /// Its download's own decode (the check that it is an image).
        case download
        /// Its grid-sized picture, kept from an earlier decode.
        case thumbnail
        /// Its file, decoded (then its picture is kept).
        case file

        var description: String {
            switch self {
            case .download: return "decoded at download"
            case .thumbnail: return "read from its thumbnail"
            case .file: return "decoded from its file"
            }
        }
    }

    enum State: Equatable {
        case placeholder
        case loading(path: String)
        case shown(path: String)
        case failed
    }

    let child: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let image: UnsafeMutablePointer<GtkWidget>
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    private(set) var photo: Photo
    private(set) var state = State.placeholder
    private var shownDescription: (name: String, tooltip: String)?
    /// Told when a photo has been shown, and where its picture came from (benchmark, tests).
    private let onShown: ((Source) -> Void)?
    private let thumbnails: ThumbnailCache?

    /// - parameter resolvePath: turns a photo's data-folder-relative path into an absolute one.
    /// - parameter thumbnails: where grid-sized pictures are kept (nil: always decode the file).
    /// - parameter takeDecoded: the photo as its download decoded it, if that decode is still kept.
    /// - parameter takePicture: the picture of the photo file at a relative path, if its album's was read already.
    /// Shows nothing until the first `update` (a kept decode or picture is then shown at once).
    init(photo: Photo, resolvePath: @escaping (String) -> String, thumbnails: ThumbnailCache? = nil,
         takeDecoded: @escaping (Int64) -> (any DecodedPhoto)? = { _ in nil },
         takePicture: @escaping (String) -> PhotoPicture? = { _ in nil },
         onShown: ((Source) -> Void)? = nil) {
        self.photo = photo
        self.resolvePath = resolvePath
        self.thumbnails = thumbnails
        self.takeDecoded = takeDecoded
        self.takePicture = takePicture
        self.onShown = onShown
        child = gtk_flow_box_child_new()
        lifetime = WidgetLifetime(child)
        Widgets.addStyleClass(child, "photo-tile")
        gtk_widget_set_size_request(child, Self.side, Self.side)
        stack = gtk_stack_new()
        gtk_stack_set_transition_type(stack.cast(), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        // A still, plain square: thirty spinners would repaint the whole grid every frame while the
        // album fills (the page's status line says what is downloading), and thirty icons made the
        // album's first frame render an SVG and lay out thirty more widgets on the main loop.
        placeholder = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        Widgets.addStyleClass(placeholder, "photo-placeholder")
        gtk_stack_add_named(stack.cast(), placeholder, "placeholder")
        image = gtk_image_new()
        gtk_stack_add_named(stack.cast(), image, "photo")
        gtk_container_add(child.container, stack)
        gtk_widget_show_all(child)
    }

    /// The error view is made the first time a download fails: most tiles never need it, and thirty of its
    /// labels cost the album's first frame a few milliseconds.
    private func showFailed() {
        if gtk_stack_get_child_by_name(stack.cast(), "failed") == nil {
            let failedBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
            gtk_widget_set_valign(failedBox, GTK_ALIGN_CENTER)
            let failedIcon = gtk_image_new_from_icon_name("image-missing-symbolic", GTK_ICON_SIZE_DND)!
            let failedLabel = gtk_label_new("Click to retry")!
            Widgets.addStyleClass(failedLabel, "dim-label")
            gtk_container_add(failedBox.container, failedIcon)
            gtk_container_add(failedBox.container, failedLabel)
            gtk_widget_show_all(failedBox)
            gtk_stack_add_named(stack.cast(), failedBox, "failed")
        }
        gtk_stack_set_visible_child_name(stack.cast(), "failed")
    }

    func update(_ photo: Photo, failed: Bool) {
        self.photo = photo
        // The grid re-renders on every photo that arrives: only a real change reaches GTK (and,
        // for the name, every screen reader listening on the bus).
        describe(failed: failed)
        if let path = photo.filePath {
            switch state {
            case .loading(let current) where current == path, .shown(let current) where current == path:
                return
            default:
                state = .loading(path: path)
                showPlaceholder()
                load(path)
            }
        } else if failed {
            state = .failed
            showFailed()
        } else {
            state = .placeholder
            showPlaceholder()
        }
    }

    var isLoading: Bool {
        if case .loading = state { return true }
        return false
    }

    var isShown: Bool {
        if case .shown = state { return true }
        return false
    }

    private func showPlaceholder() {
        gtk_stack_set_visible_child_name(stack.cast(), "placeholder")
    }

    private let resolvePath: (String) -> String
    private let takeDecoded: (Int64) -> (any DecodedPhoto)?
    private let takePicture: (String) -> PhotoPicture?

    private func load(_ relativePath: String) {
        let side = Self.side * gtk_widget_get_scale_factor(child)
        // Decoded once: the download's check decoded it at this size (unless the scale differs).
        let path = resolvePath(relativePath)
        if let id = photo.id, let decoded = takeDecoded(id) as? DecodedPixbuf,
           gdk_pixbuf_get_width(decoded.pixbuf) == side {
            if let thumbnails {
                // A file write: on a dispatch queue, not on Swift's shared executor, whose threads the
                // album's other downloads are waiting for.
                DispatchQueue.global(qos: .utility).async {
                    thumbnails.save(decoded, relativePath: relativePath, side: side, photo: path)
                }
            }
            return show(decoded, for: relativePath, source: .download)
        }
        // Read with the rest of its album (`AlbumSnapshot`).
        if let picture = takePicture(relativePath), gdk_pixbuf_get_width(picture.decoded.pixbuf) == side {
            return show(picture.decoded, for: relativePath, source: picture.source)
        }
        let thumbnails = self.thumbnails
        Task { [weak self] in
            let picture = await Task.detached(priority: .userInitiated) {
                PhotoPicture.load(relativePath: relativePath, path: path, side: side, thumbnails: thumbnails)
            }.value
            self?.show(picture?.decoded, for: relativePath, source: picture?.source ?? .file)
        }
    }

    private func show(_ decoded: DecodedPixbuf?, for relativePath: String, source: Source) {
        guard lifetime.isAlive, state == .loading(path: relativePath) else { return } // superseded
        guard let decoded else {
            state = .failed
            describe(failed: true)
            showFailed()
            return
        }
        let scale = gtk_widget_get_scale_factor(child)
        // A surface with the screen's scale keeps the thumbnail sharp on HiDPI screens.
        if let surface = gdk_cairo_surface_create_from_pixbuf(decoded.pixbuf, scale, gtk_widget_get_window(child)) {
            gtk_image_set_from_surface(image.cast(), surface)
            cairo_surface_destroy(surface)
        }
        state = .shown(path: relativePath)
        // A photo that arrives fades in over its placeholder; one read from disk (an album opened again)
        // is there within a few frames of the page, and thirty fades would only redraw the page for
        // 200 ms (every frame blends each tile's two pictures).
        gtk_stack_set_visible_child_full(stack.cast(), "photo", source == .download ? GTK_STACK_TRANSITION_TYPE_CROSSFADE
                                                                                 : GTK_STACK_TRANSITION_TYPE_NONE)
        onShown?(source)
    }

    private func describe(failed: Bool) {
        let description = (name: accessibleName(failed: failed), tooltip: tooltip(failed: failed))
        if let shown = shownDescription, shown == description { return }
        shownDescription = description
        Widgets.setAccessibleName(child, description.name)
        gtk_widget_set_tooltip_text(child, description.tooltip)
    }

    /// `failed`: its download failed, or its file does not decode; either way a click retries it.
    private func accessibleName(failed: Bool) -> String {
        let title = (photo.title?.isEmpty == false) ? photo.title! : "Untitled photo"
        if failed { return "\(title): download failed" }
        if photo.filePath != nil { return "\(title), by \(photo.ownerName ?? "unknown")" }
        return "Photo loading"
    }

    private func tooltip(failed: Bool) -> String {
        if failed { return "This photo could not be downloaded. Click to try again." }
        let title = (photo.title?.isEmpty == false) ? photo.title! : "Untitled"
        return "\(title)\nby \(photo.ownerName ?? "unknown") on Flickr\nClick to remove it from the album; Enter or right-click to view it larger"
    }
}

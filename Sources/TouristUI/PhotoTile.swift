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
    private let image: UnsafeMutablePointer<GtkWidget>
    /// Keeps `image` while the error view stands in its place.
    private let imageLifetime: WidgetLifetime
    /// "Click to retry": made the first time the tile fails (most never do), in the tile instead of `image`.
    private var failedView: UnsafeMutablePointer<GtkWidget>?
    private(set) var photo: Photo
    private(set) var state = State.placeholder
    /// Where a picture is copied before it is shown, into an image the display shares (`show`).
    private let displayImages: DisplayImages?
    private var shownDescription: (name: String, tooltip: String)?
    /// Told when a photo has been shown, and where its picture came from (benchmark, tests).
    private let onShown: ((Source) -> Void)?
    private let thumbnails: ThumbnailCache?

    /// - parameter resolvePath: turns a photo's data-folder-relative path into an absolute one.
    /// - parameter thumbnails: where grid-sized pictures are kept (nil: always decode the file).
    /// - parameter takeDecoded: the photo as its download decoded it, if that decode is still kept.
    /// - parameter takePicture: the picture of the photo file at a relative path, if its album's was read already.
    /// - parameter parts: its widgets, made ahead (`Parts.make`); made now if nil.
    /// Shows nothing until the first `update` (a kept decode or picture is then shown at once).
    init(photo: Photo, resolvePath: @escaping (String) -> String, thumbnails: ThumbnailCache? = nil,
         takeDecoded: @escaping (Int64) -> (any DecodedPhoto)? = { _ in nil },
         takePicture: @escaping (String) -> PhotoPicture? = { _ in nil },
         displayImages: DisplayImages? = nil, parts: Parts? = nil, onShown: ((Source) -> Void)? = nil) {
        self.photo = photo
        self.displayImages = displayImages
        self.resolvePath = resolvePath
        self.thumbnails = thumbnails
        self.takeDecoded = takeDecoded
        self.takePicture = takePicture
        self.onShown = onShown
        let parts = parts ?? Parts.make()
        child = parts.child
        lifetime = WidgetLifetime(child)
        image = parts.image
        imageLifetime = WidgetLifetime(image)
    }

    /// A tile's two widgets, with no window of their own: thirty tiles are styled, laid out and drawn in the frame that
    /// opens an album (made ahead: `PhotoGrid.prepareTiles`). The placeholder is the tile's own background (a still, plain square: thirty
    /// spinners would repaint the grid every frame while the album fills); the photo fades in over it by CSS
    /// transitions (Stylesheet), where a stack per tile cost two windows and two more widgets.
    struct Parts {
        /// The flow-box child, floating (its container takes it), holding `image`.
        let child: UnsafeMutablePointer<GtkWidget>
        let image: UnsafeMutablePointer<GtkWidget>

        @MainActor
        static func make() -> Parts {
            let child = gtk_flow_box_child_new()!
            Widgets.addStyleClass(child, "photo-tile")
            Widgets.addStyleClass(child, "photo-placeholder")
            let image = gtk_image_new()!
            gtk_widget_set_size_request(image, PhotoTile.side, PhotoTile.side)
            gtk_container_add(child.container, image)
            gtk_widget_show_all(child)
            return Parts(child: child, image: image)
        }
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
            let failedLabel = gtk_label_new("Click to retry")!
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

    func update(_ photo: Photo, failed: Bool) {
        self.photo = photo
        describeSoon(failed: failed)
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
        gtk_image_clear(image.cast())
        setPlaceholderLook(true, fade: false)
        place(image)
    }

    private let resolvePath: (String) -> String
    private let takeDecoded: (Int64) -> (any DecodedPhoto)?
    private let takePicture: (String) -> PhotoPicture?

    private func load(_ relativePath: String) {
        let scale = gtk_widget_get_scale_factor(child)
        let side = Self.side * scale
        // Decoded once: the download's check decoded it at this size (unless the scale differs).
        if let id = photo.id, let decoded = takeDecoded(id) as? DecodedPixbuf,
           gdk_pixbuf_get_width(decoded.pixbuf) == side {
            // Its picture is kept by the album service's `keepPicture`, as the file came into the album.
            // One photo as it arrives: converted here (some tens of microseconds at the grid's size).
            return show(PaintablePicture(decoded.pixbuf, scale: scale), for: relativePath, source: .download)
        }
        // Read with the rest of its album (`AlbumSnapshot`).
        if let picture = takePicture(relativePath), picture.picture.width == side {
            return show(picture.picture, for: relativePath, source: picture.source)
        }
        let thumbnails = self.thumbnails
        let path = resolvePath(relativePath) // only a photo read or decoded here needs its file
        Task { [weak self] in
            let picture = await Task.detached(priority: .userInitiated) {
                PhotoPicture.load(relativePath: relativePath, path: path, side: side, scale: scale, thumbnails: thumbnails)
            }.value
            self?.show(picture?.picture, for: relativePath, source: picture?.source ?? .file)
        }
    }

    private func show(_ picture: PaintablePicture?, for relativePath: String, source: Source) {
        guard lifetime.isAlive, state == .loading(path: relativePath) else { return } // superseded
        guard let picture else {
            state = .failed
            describeSoon(failed: true)
            showFailed()
            return
        }
        // The picture was made ready off the main thread. It is copied into an image like the window's (on X11, in
        // memory shared with the X server, made ahead: `DisplayImages`), which draws without being sent again; unless
        // it was read into one.
        if picture.isDisplayImage {
            picture.markWritten()
            gtk_image_set_from_surface(image.cast(), picture.surface)
        } else if let copy = displayImages?.copy(of: picture) {
            gtk_image_set_from_surface(image.cast(), copy)
            cairo_surface_destroy(copy)
        } else {
            gtk_image_set_from_surface(image.cast(), picture.surface)
        }
        state = .shown(path: relativePath)
        // A photo that arrives fades in over its placeholder; one read from disk (an album opened again)
        // is there within a few frames of the page, and thirty fades would only redraw the page for
        // 200 ms (every frame blends each tile's two pictures).
        setPlaceholderLook(false, fade: source == .download)
        place(image)
        onShown?(source)
    }

    /// The tile's accessible name and tooltip follow its photo once the main loop is idle, after the frame that shows
    /// it: an album's first frame does not wait for thirty names and tooltips (and their announcements on the
    /// accessibility bus, and the tooltips' event masks when the tiles are realized). `describeNow` does it at once.
    private func describeSoon(failed: Bool) {
        pendingFailed = failed
        guard describing == nil else { return }
        describing = Timeout.whenIdle { [weak self] in
            guard let self else { return }
            self.describing = nil
            self.describe(failed: self.pendingFailed)
        }
    }

    private var describing: Timeout?
    private var pendingFailed = false

    /// Describes the tile now, if a description is waiting (it is about to take the keyboard focus, whose move a
    /// screen reader announces with its name).
    func describeNow() {
        guard let describing else { return }
        describing.cancel()
        self.describing = nil
        describe(failed: pendingFailed)
    }

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

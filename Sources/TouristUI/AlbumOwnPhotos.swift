import CGtk
import Foundation
import GLibSwift
import Layouts
import Logging
import OwnPhotos
import TouristStore
import Translations

/// An album's "Your Photos": the user's own geotagged photos taken within the album's radius, newest first and the
/// right way up, above Flickr's, in tiles like Flickr's that open the same viewer. A click removes one from this
/// album only (with Undo); the file is never touched. While own photos are off and Flickr has none for the place,
/// the section invites the user to turn them on.
@MainActor
final class AlbumOwnPhotos {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let shownPart: UnsafeMutablePointer<GtkWidget>
    private let heading: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let invitation: UnsafeMutablePointer<GtkWidget>
    private let flickrHeading: UnsafeMutablePointer<GtkWidget>
    private let flowBox: UnsafeMutablePointer<GtkWidget>
    private let library: OwnPhotoLibrary
    private let store: AppDatabase
    private let notification: InAppNotification
    private let logger: Logger
    private var place: (pinID: Int64, latitude: Double, longitude: Double)?
    private(set) var photos: [OwnPhoto] = []
    private typealias Tile = (photo: OwnPhoto, child: UnsafeMutablePointer<GtkWidget>, image: UnsafeMutablePointer<GtkWidget>)
    private var tiles: [Tile] = []
    /// Pictures already made this run, by file: an album opened again shows them at once.
    private var pictures: [String: PaintablePicture] = [:]
    private var reading: Task<Void, Never>?
    private var decoding: Task<Void, Never>?
    private var observer: Int?
    /// The album's time the photos shown were read for.
    private var readTime: (pinID: Int64, years: ClosedRange<Int>?)?
    /// Whether Flickr has nothing to show for the place (the time to invite).
    private var flickrIsEmpty = false

    /// The newest this many show: an album is a glance at a place, and making tiles costs the main loop.
    static let mostShown = 200

    /// Opens the viewer on own photos (as album photos whose files are these paths) at an index.
    var onView: (([Photo], Int) -> Void)?

    init(library: OwnPhotoLibrary, store: AppDatabase, notification: InAppNotification, logger: Logger) {
        self.library = library
        self.store = store
        self.notification = notification
        self.logger = logger
        let layout = Layouts.builder("own-photos")
        root = layout.object("own-photos")
        lifetime = WidgetLifetime(root)
        shownPart = layout.object("own-photos-shown")
        heading = layout.object("own-photos-heading")
        scroller = layout.object("own-photos-scroller")
        invitation = layout.object("own-photos-invitation")
        flickrHeading = layout.object("flickr-heading")
        flowBox = PhotoGrid.makeFlowBox(accessibleName: tr("Your photos"))
        gtk_container_add(scroller.container, flowBox)
        gtk_widget_show(flowBox)

        flowBox.connect(.childActivated) { [weak self] child in
            guard let self, let index = self.tiles.firstIndex(where: { UnsafeMutableRawPointer($0.child) == child }) else { return }
            self.hide(self.tiles[index].photo)
        }
        flowBox.connect(.keyPress) { [weak self] event in self?.keyPressed(event) ?? false }
        scroller.connect(.sizeAllocate) { [weak self] _ in self?.fitRows() }
        layout.object("own-photos-turn-on", as: GtkWidget.self).connect(.clicked) { [weak self] in self?.turnOn() }
        observer = library.observe { [weak self] in self?.reread() }
        lifetime.onDestroy { [weak self, library] in
            guard let self else { return }
            if let observer = self.observer { library.stopObserving(observer) }
            self.reading?.cancel()
            self.decoding?.cancel()
        }
        layoutChanged()
    }

    /// The album of the pin at this place opens: its own photos are read (off the main loop) and shown.
    func show(pinID: Int64, latitude: Double, longitude: Double) {
        if place?.pinID != pinID { photos = []; sync() }
        place = (pinID, latitude, longitude)
        reread()
    }

    /// The album now shows another time ("Photos from"): the photos taken then are read again.
    func albumTimeChanged() {
        reread()
    }

    /// Flickr's part of the album has nothing to show (No Images, or a problem): the invitation's moment.
    func setFlickrEmpty(_ empty: Bool) {
        guard empty != flickrIsEmpty else { return }
        flickrIsEmpty = empty
        layoutChanged()
    }

    private func reread() {
        guard let place else { return }
        reading?.cancel()
        let library = self.library, store = self.store
        reading = Task { [weak self] in
            // The album's time is the store's (its "Photos from"): the user's photos follow it as Flickr's do.
            let (hidden, years) = await Task.detached(priority: .userInitiated) {
                ((try? store.hiddenOwnPhotos(ofPin: place.pinID)) ?? [], (try? store.album(ofPin: place.pinID))?.takenYears)
            }.value
            let found = await library.photos(nearLatitude: place.latitude, longitude: place.longitude, takenIn: years,
                                             limit: Self.mostShown)
            guard !Task.isCancelled, let self, self.place?.pinID == place.pinID else { return }
            if let before = self.readTime, before.pinID == place.pinID, before.years != years {
                library.albumChanged() // My Places counts what the album shows
            }
            self.readTime = (place.pinID, years)
            let shown = found.filter { !hidden.contains($0.path) }
            if shown != self.photos {
                self.photos = shown
                self.sync()
            }
            self.layoutChanged()
        }
    }

    private func layoutChanged() {
        guard lifetime.isAlive else { return }
        let hasPhotos = !photos.isEmpty
        let invites = !library.isEnabled && flickrIsEmpty && place != nil
        gtk_widget_set_visible(shownPart, hasPhotos.gboolean)
        gtk_widget_set_visible(scroller, hasPhotos.gboolean)
        gtk_widget_set_visible(flickrHeading, hasPhotos.gboolean)
        gtk_widget_set_visible(invitation, invites.gboolean)
        gtk_widget_set_visible(root, (hasPhotos || invites).gboolean)
        fitRows()
        // Translators: the heading of an album's own photos, e.g. "Your Photos (12)".
        gtk_label_set_text(heading.cast(), formatted(tr("Your Photos (%@)"),
                                                  photos.count.formatted(.number.locale(Translations.formattingLocale))))
    }

    /// Two rows at most show (one over a status page); fewer photos take only the rows they fill at the page's width (a flow box asks for
    /// the height of its narrowest layout otherwise).
    private func fitRows() {
        let width = Int(gtk_widget_get_allocated_width(scroller))
        let pitch = Int(PhotoTile.side) + 6
        // Not laid out yet (hidden until now): its allocation comes, and this runs again then.
        guard gtk_widget_get_mapped(scroller) != 0, width >= pitch else { return }
        let perLine = max(1, (width - 24 + 6) / pitch)
        // One row over a status page (No Images, a problem), which cannot shrink; two over Flickr's scrolling grid.
        let rows = min(flickrIsEmpty ? 1 : 2, max(1, (tiles.count + perLine - 1) / perLine))
        let height = Int32(rows * pitch - 6 + 24)
        guard gtk_scrolled_window_get_min_content_height(scroller.cast()) != height else { return }
        // After this allocation: changing a size request while GTK allocates is not allowed.
        Timeout.after(milliseconds: 0) { [weak self] in
            guard let self, self.lifetime.isAlive else { return }
            // GTK insists on min ≤ max at every step: the one that moves away from the other goes first.
            if height > gtk_scrolled_window_get_max_content_height(self.scroller.cast()) {
                gtk_scrolled_window_set_max_content_height(self.scroller.cast(), height)
                gtk_scrolled_window_set_min_content_height(self.scroller.cast(), height)
            } else {
                gtk_scrolled_window_set_min_content_height(self.scroller.cast(), height)
                gtk_scrolled_window_set_max_content_height(self.scroller.cast(), height)
            }
        }
    }

    // MARK: Tiles

    /// Brings the tiles in line with `photos`: gone ones are removed, new ones made in their places, the rest kept
    /// (the order is by date and never changes between the photos kept, so inserting in order places every one).
    private func sync() {
        guard lifetime.isAlive else { return }
        let wanted = Set(photos.map(\.path))
        var kept: [String: Tile] = [:]
        for tile in tiles {
            if wanted.contains(tile.photo.path) { kept[tile.photo.path] = tile } else { gtk_widget_destroy(tile.child) }
        }
        tiles = photos.enumerated().map { position, photo in
            if let tile = kept[photo.path] { return tile }
            let child = gtk_flow_box_child_new()!
            Widgets.addStyleClass(child, "photo-tile")
            let image = gtk_image_new()!
            gtk_widget_set_size_request(image, PhotoTile.side, PhotoTile.side)
            gtk_container_add(child.container, image)
            if let picture = pictures[photo.path] {
                gtk_image_set_from_surface(image.cast(), picture.surface)
            } else {
                Widgets.addStyleClass(child, "photo-placeholder")
            }
            let name = Self.describe(photo)
            Widgets.setAccessibleName(child, name)
            gtk_widget_set_tooltip_text(child, formatted(tr("%@\nClick to remove it from this album; the file stays."), name))
            gtk_flow_box_insert(flowBox.cast(), child, Int32(position))
            gtk_widget_show_all(child)
            return (photo, child, image)
        }
        fitRows()
        decodeMissing()
    }

    /// Makes the tiles' pictures off the main loop, two files at a time, newest first.
    private func decodeMissing() {
        decoding?.cancel()
        let wanted = photos.map(\.path).filter { pictures[$0] == nil }
        guard !wanted.isEmpty else { return }
        let scale = gtk_widget_get_scale_factor(root)
        let side = PhotoTile.side * scale
        decoding = Task { [weak self] in
            for batch in stride(from: 0, to: wanted.count, by: 2).map({ Array(wanted[$0..<min($0 + 2, wanted.count)]) }) {
                let made = await withTaskGroup(of: (String, PaintablePicture?).self) { group in
                    for path in batch {
                        group.addTask(priority: .userInitiated) {
                            guard let decoded = ImageDecoding.squareThumbnail(path: path, side: side),
                                  let surface = ImageSurfaces.surface(from: decoded.pixbuf) else { return (path, nil) }
                            return (path, PaintablePicture(adopting: surface, scale: scale))
                        }
                    }
                    var made: [(String, PaintablePicture?)] = []
                    for await result in group { made.append(result) }
                    return made
                }
                guard !Task.isCancelled, let self else { return }
                for (path, picture) in made { self.showPicture(picture, of: path) }
            }
        }
    }

    private func showPicture(_ picture: PaintablePicture?, of path: String) {
        guard lifetime.isAlive, let tile = tiles.first(where: { $0.photo.path == path }) else { return }
        guard let picture else {
            // A picture that does not decode is unreadable: counted in Preferences, never shown (the index rereads it).
            logger.notice("Your photo \(path) could not be decoded; it is left out")
            library.pictureFailed(path)
            return
        }
        if pictures.count > 1_000 { pictures.removeAll() } // a run that opened many albums starts again
        pictures[path] = picture
        gtk_image_set_from_surface(tile.image.cast(), picture.surface)
        gtk_style_context_remove_class(gtk_widget_get_style_context(tile.child), "photo-placeholder")
    }

    private static func describe(_ photo: OwnPhoto) -> String {
        let name = URL(fileURLWithPath: photo.path).lastPathComponent
        guard let taken = photo.takenAt else { return name }
        // Translators: an own photo's tile, e.g. "IMG_0042.jpg, taken 1 Jun 2019".
        return formatted(tr("%1$@, taken %2$@"), name, CameraTime.day(taken))
    }

    // MARK: Hiding and viewing

    /// Enter or Space open the viewer, Delete hides, as in Flickr's grid.
    private func keyPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let key = event.pointee.key.keyval
        guard let focused = gtk_container_get_focus_child(flowBox.container),
              let index = tiles.firstIndex(where: { $0.child == focused }) else { return false }
        switch Int32(key) {
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space:
            view(at: index)
            return true
        case GDK_KEY_Delete, GDK_KEY_KP_Delete:
            hide(tiles[index].photo)
            return true
        default:
            return false
        }
    }

    private func view(at index: Int) {
        guard let pinID = place?.pinID else { return }
        let asAlbum = photos.enumerated().map { position, photo in
            Photo(pinId: pinID, flickrId: "", remoteURL: "", filePath: photo.path,
                  title: URL(fileURLWithPath: photo.path).lastPathComponent, position: position,
                  createdAt: photo.takenAt ?? Photo.undated)
        }
        onView?(asAlbum, index)
    }

    private func hide(_ photo: OwnPhoto) {
        guard let pinID = place?.pinID else { return }
        setHidden(photo.path, true, pinID: pinID)
        notification.show(tr("Photo removed from this album. The file is still on your computer."),
                          actionLabel: tr("Undo")) { [weak self] in self?.setHidden(photo.path, false, pinID: pinID) }
    }

    private func setHidden(_ path: String, _ hidden: Bool, pinID: Int64) {
        let store = self.store
        // At once on screen; the row is written off the main loop.
        if hidden, place?.pinID == pinID, let index = photos.firstIndex(where: { $0.path == path }) {
            photos.remove(at: index)
            gtk_widget_destroy(tiles.remove(at: index).child)
            layoutChanged()
        }
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) {
                Result { try store.setOwnPhoto(path, hidden: hidden, inAlbumOfPin: pinID) }
            }.value
            if case .failure(let error) = result {
                self?.logger.error("Could not change an own photo's place in an album: \(error)")
                self?.notification.show(tr("The album could not be changed. Your photo is still on your computer."))
            }
            self?.library.albumChanged() // which also reads this album's photos again
        }
    }

    private func turnOn() {
        do {
            try library.turnOn()
        } catch {
            logger.error("Could not turn own photos on: \(error)")
            notification.show(formatted(tr("Your photos could not be turned on. %@"),
                                     error.localizedDescription))
        }
    }
}

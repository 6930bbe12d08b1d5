import CGtk
import Foundation
import GLibSwift
import Layouts
import Logging
import TouristAlbums
import TouristStore
import Translations

/// The photo album of one pin: a grid of photos that fills in as they download, with the empty
/// and error states, New Collection, click-to-delete with undo, attribution per photo, and the
/// photo viewer (Enter, or View Larger in a photo's menu).
@MainActor
final class AlbumPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    let store: any AlbumPageStore
    let albums: AlbumService
    let notification: InAppNotification
    let logger: Logger
    private let content: UnsafeMutablePointer<GtkWidget>
    let grid: PhotoGrid
    let deletions: PhotoDeletions
    let largePhotos: LargePhotos?
    var viewer: PhotoViewer?
    private let progress: UnsafeMutablePointer<GtkWidget>
    private let progressRevealer: UnsafeMutablePointer<GtkWidget>
    private let newCollectionButton: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    private let noImages: StatusPage
    private let searching: StatusPage
    private let problem: StatusPage
    private let retryButton: UnsafeMutablePointer<GtkWidget>
    private let preferencesButton: UnsafeMutablePointer<GtkWidget>
    private let menu = PhotoMenu()
    private let timeChooser: AlbumTimeChooser
    private let ownPhotosSlot: UnsafeMutablePointer<GtkWidget>
    /// The user's own photos near the place, above Flickr's (when the library has them).
    private(set) var ownPhotos: AlbumOwnPhotos?
    /// The album time the chooser was last brought in line with (nil: not yet for this pin).
    private var shownTime: ClosedRange<Int>??

    private(set) var pinID: Int64?
    /// Where the page is with its album: read whole (its rows and pictures) before it goes on screen, then watched.
    private var phase = Phase.hidden
    private var observation: StoreObservation?
    /// The album being read whole, until its snapshot is in the grid.
    private var reading: Task<Void, Never>?
    private let pictures: AlbumPictures
    private(set) var contents = AlbumContents(album: nil, photos: [])
    /// The album activity last shown, so a failure is announced once, when it happens.
    private var shownActivity = AlbumActivity.idle
    /// Its rows have been read since the album was opened.
    private var isRead = false

    private enum Phase {
        case hidden
        /// Asked for: on screen once it is read whole (`present`), or after `readyWait` as it is.
        case opening(present: () -> Void, deadline: Timeout)
        case shown
    }

    /// Opens the Preferences dialog (the window owns it).
    var onShowPreferences: (() -> Void)?
    /// Told whenever a photo has been painted.
    var onPhotoShown: (() -> Void)?

    init(store: any AlbumPageStore, albums: AlbumService, largePhotos: LargePhotos?, pictures: AlbumPictures,
         notification: InAppNotification, logger: Logger) {
        self.store = store
        self.albums = albums
        self.pictures = pictures
        self.largePhotos = largePhotos
        self.notification = notification
        self.logger = logger
        grid = PhotoGrid(pictures: pictures)
        deletions = PhotoDeletions(store: store, notification: notification)

        // The layout is data/ui/album-page.ui: built once, with the window; an album opened fills it in.
        let layout = Layouts.builder("album-page")
        root = layout.object("album-page")
        lifetime = WidgetLifetime(root)
        progress = layout.object("download-progress")
        progressRevealer = layout.object("download-progress-revealer")
        content = layout.object("album-content")
        newCollectionButton = layout.object("new-collection-button")
        statusLabel = layout.object("album-status")
        retryButton = layout.object("retry-button")
        preferencesButton = layout.object("preferences-button")
        timeChooser = AlbumTimeChooser(decadeBox: layout.object("album-decade"), yearBox: layout.object("album-year"))
        ownPhotosSlot = layout.object("own-photos-slot")

        let photoScroller: UnsafeMutablePointer<GtkWidget> = layout.object("photo-scroller")
        gtk_container_add(photoScroller.container, grid.flowBox)
        gtk_widget_show(grid.flowBox)
        noImages = StatusPage(icon: "image-missing-symbolic", title: tr("No Images"),
                              description: tr("Nobody has shared photos taken near this place on Flickr yet. Try a pin nearby."))
        gtk_container_add(layout.object("no-images-slot", as: GtkContainer.self), noImages.root)
        searching = StatusPage(icon: "folder-pictures-symbolic", title: tr("Looking for Photos…"),
                               description: tr("Asking Flickr for photos taken near this place."))
        gtk_container_add(layout.object("searching-slot", as: GtkContainer.self), searching.root)
        problem = StatusPage(icon: "dialog-warning-symbolic", title: "", description: "")
        gtk_container_add(problem.root.container, layout.object("problem-actions"))
        gtk_container_add(layout.object("problem-slot", as: GtkContainer.self), problem.root)

        newCollectionButton.connect(.clicked) { [weak self] in self?.newCollection() }
        retryButton.connect(.clicked) { [weak self] in
            guard let self, let pinID = self.pinID else { return }
            if self.contents.album == nil {
                self.albums.ensureAlbum(ofPin: pinID)
            } else {
                self.albums.retryFailedPhotos(ofPin: pinID) // none of its photos could be downloaded
            }
        }
        preferencesButton.connect(.clicked) { [weak self] in self?.onShowPreferences?() }
        timeChooser.onChoose = { [weak self] years in self?.chooseTime(years) }
        grid.onClicked = { [weak self] tile in self?.clicked(tile) }
        grid.onOpen = { [weak self] tile in self?.view(tile.photo) }
        grid.onDelete = { [weak self] tile in self?.deleteFromKeyboard(tile) }
        grid.onMenu = { [weak self] tile, event in
            guard let self else { return }
            self.menu.popup(for: tile.photo, event: event, over: self.grid.flowBox, tile: tile.child)
        }
        grid.onShown = { [weak self] origin in self?.photoShown(from: origin) }
        grid.onPainted = { [weak self] in
            guard let self else { return }
            self.logger.trace("album \(self.pinID ?? 0): photos painted, \(self.shownPhotoCount) of \(self.contents.photos.count)")
        }
        menu.onView = { [weak self] photo in self?.view(photo) }
        let albumsObservation = albums.observe { [weak self] pinID in
            guard let self, pinID == self.pinID else { return }
            self.activityChanged()
            self.render()
        }
        lifetime.onDestroy { [weak self, albums] in
            albums.stopObserving(albumsObservation)
            self?.reading?.cancel()
            self?.observation?.cancel()
        }
    }

    /// Puts the own photos' section above Flickr's photos; its tiles open the album's viewer.
    func attach(_ section: AlbumOwnPhotos) {
        ownPhotos = section
        gtk_container_add(ownPhotosSlot.container, section.root)
        section.onView = { [weak self] photos, index in self?.view(own: photos, at: index) }
    }

    // MARK: Showing a pin

    /// The longest an album waits to be read whole before it is shown as it is (a slow disk, many photos to decode).
    static let readyWait: UInt32 = 100

    /// Opens the album of `pinID` and downloads what is missing. `present` puts the page on screen: once the album's
    /// rows and its photos' pictures are in the grid, so that its first frame shows it whole, or after `readyWait`.
    func show(pinID: Int64, present: @escaping () -> Void) {
        if case .opening(_, let deadline) = phase { deadline.cancel() }
        albums.ensureAlbum(ofPin: pinID) // downloads only what is missing
        if pinID == self.pinID, isRead { // the album shown last, kept up to date while hidden
            phase = .shown
            present()
            return
        }
        let deadline = Timeout.after(milliseconds: Self.readyWait) { [weak self] in self?.finishOpening() }
        phase = .opening(present: present, deadline: deadline)
        if pinID != self.pinID || reading == nil { read(pinID: pinID) } // else the read the pointer started
    }

    /// Reads the album of the pin under the pointer behind the map (nothing is downloaded): the click that usually
    /// follows finds it read, and shows it in its first frame.
    func prepare(pinID: Int64) {
        guard case .hidden = phase, pinID != self.pinID, !albums.activity(ofPin: pinID).isBusy else { return }
        logger.trace("album \(pinID): made ready")
        read(pinID: pinID)
    }

    /// Reads the album of `pinID` whole off the main thread, fills the grid in one pass, then watches its rows.
    private func read(pinID: Int64) {
        finishPendingDeletions()
        self.pinID = pinID
        shownActivity = albums.activity(ofPin: pinID)
        observation?.cancel()
        observation = nil
        reading?.cancel()
        contents = AlbumContents(album: nil, photos: [])
        isRead = false
        shownTime = nil
        let scale = gtk_widget_get_scale_factor(root)
        reading = Task { [weak self, store, pictures] in
            let snapshot = try? await AlbumSnapshot.read(pinID: pinID, store: store, pictures: pictures,
                                                         side: PhotoTile.side * scale, scale: scale)
            guard let self, self.pinID == pinID, !Task.isCancelled else { return }
            self.reading = nil
            if let snapshot { self.arrived(snapshot.contents, pictures: snapshot.pictures) }
            self.finishOpening()
            self.observation = self.store.observeAlbum(ofPin: pinID, onError: { [weak self] error in
                self?.logger.error("Could not read the album: \(error.localizedDescription)")
            }, onChange: { [weak self] contents in
                guard let self, self.pinID == pinID else { return }
                self.arrived(contents)
            })
        }
    }

    /// The page goes on screen, read whole or not.
    private func finishOpening() {
        guard case .opening(let present, let deadline) = phase else { return }
        deadline.cancel()
        phase = .shown
        if !isRead { render() } // as it is: still being read
        present()
    }

    private func arrived(_ contents: AlbumContents, pictures: [String: AlbumPicture] = [:]) {
        // The watch's first value is usually the snapshot again: going over thirty tiles again would change nothing.
        if isRead, contents == self.contents { return }
        let first = !isRead
        self.contents = contents
        isRead = true
        // An album on disk does not fade in from "Looking for Photos…".
        render(pictures: pictures, fade: !first)
    }

    /// The page is hidden: make pending photo deletions final.
    func hide() {
        if case .opening(_, let deadline) = phase { deadline.cancel() }
        phase = .hidden
        finishPendingDeletions()
    }

    /// The pin was deleted while its album was shown.
    func forget(pinID: Int64) {
        guard pinID == self.pinID else { return }
        reading?.cancel()
        observation?.cancel()
        observation = nil
        self.pinID = nil
    }

    var photoCount: Int { grid.count }
    var shownPhotoCount: Int { grid.shownCount }
    var isNewCollectionEnabled: Bool { gtk_widget_get_sensitive(newCollectionButton) != 0 }

    /// The photo grid tells screen readers whose photos these are ("Photos of Montmartre, Paris, France").
    func setPlaceName(_ name: String) {
        // Translators: the album's name for screen readers; %@ is a place name, e.g. "Montmartre, Paris, France".
        Widgets.setAccessibleName(grid.flowBox, formatted(tr("Photos of %@"), name))
    }

    func retryAfterKeyChange() {
        guard let pinID, case .failed = albums.activity(ofPin: pinID) else { return }
        albums.ensureAlbum(ofPin: pinID)
    }

    /// The first photo takes the keyboard (the album was opened).
    func focusPhotos() {
        grid.focusFirstPhoto()
    }

    // MARK: Rendering

    /// `pictures`: read with the album, for its tiles to show at once.
    private func render(pictures: [String: AlbumPicture] = [:], fade: Bool = true) {
        guard lifetime.isAlive, let pinID else { return }
        // Until its rows are read, a page being opened has nothing to show.
        if case .opening = phase, !isRead { return }
        let activity = albums.activity(ofPin: pinID)
        let failed = albums.failedPhotoIDs(ofPin: pinID)
        shownInSync = [:]
        grid.sync(contents.photos, failed: failed, pictures: pictures)
        if let shown = shownInSync {
            shownInSync = nil
            for (source, count) in shown.sorted(by: { $0.key.description < $1.key.description }) {
                logShown(count, from: source)
            }
        }

        let photoProblem = albums.photoProblem(ofPin: pinID)
        let state = AlbumPageState(contents: contents, activity: activity, failedCount: failed.count,
                                   photoProblem: photoProblem)
        switch state {
        case .noImages(let description):
            noImages.update(title: tr("No Images"), description: description)
        case .problem(let icon, let title, let description, let offersRetry):
            problem.update(icon: icon, title: title, description: description)
            emphasise(retry: offersRetry)
        case .searching, .photos:
            break
        }
        ownPhotos?.setFlickrEmpty(state.pageName == "no-images" || state.pageName == "problem")
        gtk_stack_set_visible_child_full(content.cast(), state.pageName, fade ? GTK_STACK_TRANSITION_TYPE_CROSSFADE
                                                                               : GTK_STACK_TRANSITION_TYPE_NONE)

        if case .downloading(let finished, let total) = activity, total > 0 {
            gtk_progress_bar_set_fraction(progress.cast(), Double(finished) / Double(total))
            gtk_revealer_set_reveal_child(progressRevealer.cast(), 1)
        } else {
            gtk_revealer_set_reveal_child(progressRevealer.cast(), 0)
        }

        // Only a change of the album's time moves the chooser: a search for a time just chosen keeps it shown.
        if shownTime != .some(contents.album?.takenYears) {
            shownTime = .some(contents.album?.takenYears)
            timeChooser.show(contents.album?.takenYears)
            ownPhotos?.albumTimeChanged()
        }

        let complete = albums.isComplete(contents, pinID: pinID)
        let canRefresh = complete && albums.hasOtherCollections(contents)
        gtk_widget_set_sensitive(newCollectionButton, canRefresh.gboolean)
        gtk_widget_set_tooltip_text(newCollectionButton, complete && !canRefresh
            ? tr("This place has no other photos") : tr("Replace these photos with others taken nearby"))
        gtk_label_set_text(statusLabel.cast(), activity.statusText(photoCount: contents.photos.count, failed: failed.count))
        // Why the latest photo failed, where the failures are counted.
        gtk_widget_set_tooltip_text(statusLabel, activity.isBusy ? nil : photoProblem)
    }

    /// The problem page's way out is emphasised: Try Again, or Preferences for a key problem.
    private func emphasise(retry: Bool) {
        if retry {
            gtk_widget_hide(preferencesButton)
            Widgets.addStyleClass(retryButton, "suggested-action")
        } else {
            gtk_widget_show(preferencesButton)
            gtk_style_context_remove_class(gtk_widget_get_style_context(retryButton), "suggested-action")
            Widgets.addStyleClass(preferencesButton, "suggested-action")
        }
    }

    /// A New Collection that failed over a shown album is told once, as it fails; rendering again
    /// (a photo deleted, a photo arrived) must not bring it back over another notification.
    private func activityChanged() {
        guard lifetime.isAlive, let pinID else { return }
        let activity = albums.activity(ofPin: pinID)
        defer { shownActivity = activity }
        if activity != shownActivity, case .failed = activity { // the time chosen was not reached
            shownTime = .some(contents.album?.takenYears)
            timeChooser.show(contents.album?.takenYears)
        }
        guard case .shown = phase, activity != shownActivity, case .failed(let trouble) = activity, contents.album != nil else { return }
        // Translators: a failed search's title, then what to do, e.g. "Flickr is unreachable. Check your connection."
        notification.show(formatted(tr("%1$@. %2$@"), trouble.title, trouble.message))
    }

    private func photoShown(from source: AlbumPicture.Origin) {
        if shownInSync != nil {
            shownInSync?[source, default: 0] += 1
        } else {
            logShown(1, from: source)
        }
        onPhotoShown?()
    }

    /// Photos shown while the grid is brought in line with the album (`render`), by where their pictures came from:
    /// told in one line each, after it (an album opened shows its thirty at once), not thirty.
    private var shownInSync: [AlbumPicture.Origin: Int]?

    private func logShown(_ count: Int, from source: AlbumPicture.Origin) {
        // Out of the album's photos.
        logger.trace("album \(pinID ?? 0): \(count) photo\(count == 1 ? "" : "s") shown (\(source)), \(shownPhotoCount) of \(contents.photos.count)")
    }
}

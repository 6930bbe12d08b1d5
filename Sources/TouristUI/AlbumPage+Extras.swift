// The album page's photo viewer and status line, the place name it tells screen readers, and what it makes ahead.
import CGtk
import GLibSwift
import TouristAlbums
import TouristStore

extension AlbumPage {
    /// Opens the viewer on `photo`, going through the album's downloaded photos.
    func view(_ photo: Photo) {
        let downloaded = contents.photos.filter { $0.filePath != nil }
        guard let index = downloaded.firstIndex(where: { $0.id == photo.id }) else {
            notification.show("This photo has not been downloaded yet.", seconds: 4)
            return
        }
        viewer.map { gtk_widget_destroy($0.window) }
        let store = self.store
        let viewer = PhotoViewer(photos: downloaded, index: index, parent: gtk_widget_get_toplevel(root),
                                 resolvePath: { store.photoFileURL(relativePath: $0).path },
                                 largePhotos: largePhotos, logger: logger)
        viewer.window.connect(.destroy) { [weak self, weak viewer] in
            guard let self, let viewer, self.viewer === viewer else { return }
            self.viewer = nil
        }
        self.viewer = viewer
        viewer.present()
    }

    /// The viewer, while it is open (tests).
    var openViewer: PhotoViewer? { viewer }
}

extension AlbumActivity {
    /// The album page's status line: what is under way, else how many photos the album has and how many failed.
    func statusText(photoCount: Int, failed: Int) -> String {
        switch self {
        case .searching: return "Looking for photos…"
        case .downloading(let finished, let total): return "Downloading \(finished) of \(total)…"
        case .idle, .failed:
            guard photoCount > 0 else { return "" }
            let photos = photoCount == 1 ? "1 photo" : "\(photoCount) photos"
            return failed > 0 ? "\(photos), \(failed) could not be downloaded" : photos
        }
    }
}

extension AlbumPage {
    /// The photo grid tells screen readers whose photos these are ("Photos of Montmartre, Paris, France").
    func setPlaceName(_ name: String) {
        Widgets.setAccessibleName(grid.flowBox, "Photos of \(name)")
    }

    func retryAfterKeyChange() {
        guard let pinID, case .failed = albums.activity(ofPin: pinID) else { return }
        albums.ensureAlbum(ofPin: pinID)
    }

    /// The first photo takes the keyboard (the album was opened).
    func focusPhotos() {
        grid.focusFirstPhoto()
    }
}

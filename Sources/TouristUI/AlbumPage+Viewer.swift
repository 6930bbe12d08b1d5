// The album page's photo viewer: Enter on a photo, or View Larger in its menu.
import CGtk
import GLibSwift
import TouristStore
import Translations

extension AlbumPage {
    /// Opens the viewer on `photo`, going through the album's downloaded photos.
    func view(_ photo: Photo) {
        let downloaded = contents.photos.filter { $0.filePath != nil }
        guard let index = downloaded.firstIndex(where: { $0.id == photo.id }) else {
            notification.show(tr("This photo has not been downloaded yet."), seconds: 4)
            return
        }
        let store = self.store
        open(PhotoViewer(photos: downloaded, index: index, parent: gtk_widget_get_toplevel(root),
                         resolvePath: { store.photoFileURL(relativePath: $0).path }, largePhotos: largePhotos, logger: logger))
    }

    /// Opens the viewer on the user's own photos (their `filePath`s are the files' own paths).
    func view(own photos: [Photo], at index: Int) {
        open(PhotoViewer(photos: photos, index: index, parent: gtk_widget_get_toplevel(root), resolvePath: { $0 },
                         largePhotos: nil, logger: logger))
    }

    private func open(_ viewer: PhotoViewer) {
        self.viewer.map { gtk_widget_destroy($0.window) }
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

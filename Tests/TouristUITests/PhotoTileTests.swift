import CGtk
import Foundation
import GLibSwift
import TouristStore
@testable import TouristUI
import XCTest

/// An album tile: a placeholder square until its photo's picture is read (`AlbumPictures`), then the photo;
/// "Click to retry" in the photo's place when its file does not decode, and the photo again once a good file
/// comes.
final class PhotoTileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder("photo-tile")
    }

    @MainActor
    func testATileShowsItsPhotoInThePlaceholdersPlaceAndComesBackFromAFileThatDoesNotDecode() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        try writePhoto("red.jpg", red: 220, green: 30, blue: 30)
        try Data("<html>not a photo</html>".utf8).write(to: folder.appendingPathComponent("broken.jpg"))
        let folder = self.folder!

        let pictures = AlbumPictures(folder: folder.appendingPathComponent("cache"),
                                     photoPath: { folder.appendingPathComponent($0).path })
        let tile = PhotoTile(photo: photo(file: nil))
        /// What the grid does for a tile that waits for its photo's picture.
        func update(_ photo: Photo) async {
            guard let path = tile.update(photo, failed: false) else { return }
            let picture = await pictures.picture(of: path, side: PhotoTile.side, scale: 1)
            tile.show(picture?.picture, for: path, fade: false)
        }
        let flowBox = gtk_flow_box_new()!
        gtk_flow_box_insert(flowBox.cast(), tile.child, -1)
        let window = gtk_offscreen_window_new()!
        gtk_container_add(window.container, flowBox)
        gtk_widget_show_all(window)
        defer { gtk_widget_destroy(window) }
        tile.update(photo(file: nil), failed: false)
        XCTAssertTrue(hasClass(tile.child, "photo-placeholder"), "no file yet: the placeholder's square")
        XCTAssertEqual(typeName(gtk_bin_get_child(tile.child.cast())), "GtkImage")

        await update(photo(file: "broken.jpg"))
        try await pump(until: { tile.state == .failed }, "the file that does not decode fails the tile")
        let errorView = try XCTUnwrap(gtk_bin_get_child(tile.child.cast()))
        XCTAssertEqual(typeName(errorView), "GtkBox", "the error view stands in the photo's place")
        XCTAssertTrue(labels(in: errorView).contains("Click to retry"))
        XCTAssertFalse(hasClass(tile.child, "photo-placeholder"))

        await update(photo(file: "red.jpg"))
        try await pump(until: { tile.isShown }, "the good file is read and shown")
        gtk_container_check_resize(window.cast()) // the layout the next frame would make
        let image = try XCTUnwrap(gtk_bin_get_child(tile.child.cast()))
        XCTAssertEqual(typeName(image), "GtkImage", "the photo is back in its place, in place of the error view")
        XCTAssertEqual(gtk_image_get_storage_type(image.cast()), GTK_IMAGE_SURFACE)
        XCTAssertFalse(hasClass(tile.child, "photo-placeholder"), "the placeholder's square is gone")
        XCTAssertEqual(gtk_widget_get_allocated_width(image), PhotoTile.side)
        let centre = try drawnPixel(of: tile.child, x: gtk_widget_get_allocated_width(tile.child) / 2,
                               y: gtk_widget_get_allocated_height(tile.child) / 2)
        XCTAssertLessThan(zip(centre, [220, 30, 30]).map { abs(Int($0) - $1) }.max()!, 24, "the photo is drawn: \(centre)")
    }

    private func photo(file: String?) -> Photo {
        Photo(id: 1, pinId: 1, flickrId: "1", remoteURL: "https://photos.example/1.jpg", filePath: file,
              ownerName: "Ada", title: "A red square", position: 0)
    }

    /// A one-colour 320×240 JPEG (the size of Flickr's small photos) in the test's folder.
    private func writePhoto(_ name: String, red: UInt32, green: UInt32, blue: UInt32) throws {
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 320, 240))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, red << 24 | green << 16 | blue << 8 | 0xFF)
        var error: UnsafeMutablePointer<GError>?
        XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, folder.appendingPathComponent(name).path, "jpeg", nil, nil, &error), 0)
        if let error { g_error_free(error) }
    }

    @MainActor
    private func hasClass(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) -> Bool {
        gtk_style_context_has_class(gtk_widget_get_style_context(widget), name) != 0
    }

    private func typeName(_ widget: UnsafeMutablePointer<GtkWidget>?) -> String? {
        widget.flatMap { g_type_name_from_instance(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self)) }
            .map { String(cString: $0) }
    }

    /// The texts of the labels inside `widget`.
    @MainActor
    private func labels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        guard let list = gtk_container_get_children(widget.cast()) else { return [] }
        defer { g_list_free(list) }
        var texts: [String] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            let child = current.pointee.data.assumingMemoryBound(to: GtkWidget.self)
            if typeName(child) == "GtkLabel", let text = gtk_label_get_text(child.cast()) {
                texts.append(String(cString: text))
            }
            node = current.pointee.next
        }
        return texts
    }
}

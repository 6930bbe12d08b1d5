import CGtk
import GLibSwift
import TouristStore
@testable import TouristUI
import XCTest

/// A popup menu is a window of its own, which GTK keeps when the widget it belongs to goes: the photo's and the pin's
/// menus go with the album's and the map's widgets, whether they were ever shown or not.
final class MenuLifetimeTests: XCTestCase {
    override func setUpWithError() throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display (run under xvfb-run)") }
    }

    private let photo = Photo(pinId: 1, flickrId: "52123", remoteURL: "http://127.0.0.1:9/52123.jpg", ownerId: "ann",
                              ownerName: "Ann", position: 0)

    @MainActor
    private var toplevelCount: UInt32 {
        let toplevels = gtk_window_list_toplevels()
        defer { g_list_free(toplevels) }
        return g_list_length(toplevels)
    }

    @MainActor
    func testAMenuNeverShownLeavesNoWindowBehind() {
        let before = toplevelCount
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let grid = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_container_add(window.container, grid)
        let menu = PhotoMenu()

        gtk_widget_destroy(window)

        XCTAssertEqual(toplevelCount, before, "no menu window outlives the page")
        _ = menu
    }

    @MainActor
    func testTheMenuIsDestroyedWithTheWidgetItPopsUpOver() async throws {
        let before = toplevelCount
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let grid = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        let tile = gtk_label_new("tile")!
        gtk_container_add(grid.container, tile)
        gtk_container_add(window.container, grid)
        gtk_widget_show_all(window)
        try await pump(until: { gtk_widget_get_mapped(tile) != 0 }, "the tile is on screen")
        let menu = PhotoMenu()

        menu.popup(for: photo, event: nil, over: grid, tile: tile)

        let attached = gtk_menu_get_for_attach_widget(grid)
        XCTAssertEqual(g_list_length(attached), 1, "the menu is attached to the widget it pops up over")
        let shown = try XCTUnwrap(attached?.pointee.data).assumingMemoryBound(to: GtkWidget.self)
        var destroyed = false
        shown.connect(.destroy) { destroyed = true }
        gtk_widget_destroy(window)

        XCTAssertTrue(destroyed, "the menu goes with the page's widgets")
        XCTAssertEqual(toplevelCount, before)
        _ = menu
    }

    @MainActor
    func testAPinsMenuIsDestroyedWithItsMap() {
        let before = toplevelCount
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let map = gtk_drawing_area_new()!
        gtk_container_add(window.container, map)
        let menu = PinMenu(attachedTo: map)
        XCTAssertEqual(toplevelCount, before + 2, "the window and the menu's own")

        gtk_widget_destroy(window)

        XCTAssertEqual(toplevelCount, before, "no menu window outlives the map")
        _ = menu
    }
}

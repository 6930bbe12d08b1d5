import CGtk
import GLibSwift
import XCTest

private final class KeptOwner {}

/// The one ownership rule: a Swift object keeps its widget alive as memory, and learns when the
/// widget is destroyed so that late callbacks leave it alone.
final class WidgetLifetimeTests: XCTestCase {
    override func setUpWithError() throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display (run under xvfb-run)") }
    }

    func testDestroyTurnsTheLifetimeOffAndRunsTeardownOnce() {
        MainActor.assumeIsolated {
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            let label = gtk_label_new("child")!
            gtk_container_add(window.container, label)
            let windowLifetime = WidgetLifetime(window)
            let labelLifetime = WidgetLifetime(label)
            var teardowns = 0
            labelLifetime.onDestroy { teardowns += 1 }
            XCTAssertTrue(windowLifetime.isAlive && labelLifetime.isAlive)

            gtk_widget_destroy(window)

            XCTAssertFalse(windowLifetime.isAlive)
            XCTAssertFalse(labelLifetime.isAlive, "destroying a window destroys its children")
            XCTAssertEqual(teardowns, 1)
            labelLifetime.onDestroy { teardowns += 1 }
            XCTAssertEqual(teardowns, 2, "teardown registered after the destroy runs at once")
        }
    }

    func testTheLifetimeKeepsTheWidgetAsValidMemoryUntilItGoes() {
        MainActor.assumeIsolated {
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            // Object data is released at finalization (weak references already fire at dispose).
            let flag = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
            defer { flag.deallocate() }
            flag.pointee = false
            g_object_set_data_full(window.gobject, "finalized-flag", flag) { data in
                data!.assumingMemoryBound(to: Bool.self).pointee = true
            }
            var finalized: Bool { flag.pointee }
            var lifetime: WidgetLifetime? = WidgetLifetime(window)
            gtk_widget_destroy(window)
            XCTAssertFalse(finalized, "the Swift object still holds a reference: the pointer stays valid")
            XCTAssertEqual(gtk_widget_in_destruction(window), 0)
            _ = lifetime
            lifetime = nil
            XCTAssertTrue(finalized, "the widget goes with the last reference")
        }
    }

    func testAKeptOwnerLivesUntilTheWidgetIsDestroyed() {
        MainActor.assumeIsolated {
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            let lifetime = WidgetLifetime(window)
            weak var weakOwner: AnyObject?
            do {
                let owner = KeptOwner()
                weakOwner = owner
                lifetime.keep(owner)
            }
            XCTAssertNotNil(weakOwner, "nothing but the widget holds the owner")

            gtk_widget_destroy(window)

            XCTAssertNil(weakOwner, "the owner goes with its widget")
        }
    }

    func testAWidgetDestroyedWithItsOwnerGoesWithIt() {
        MainActor.assumeIsolated {
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            let menu = gtk_menu_new()! // a toplevel of its own: nothing else destroys it
            let lifetime = WidgetLifetime(menu)
            lifetime.destroy(with: window)
            XCTAssertTrue(lifetime.isAlive)

            gtk_widget_destroy(window)

            XCTAssertFalse(lifetime.isAlive, "the menu went with its owner")
        }
    }
}

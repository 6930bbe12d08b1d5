import CGtk
import Layouts
import XCTest

final class ShortcutsWindowTests: XCTestCase {
    @MainActor
    func testTheShortcutsLayoutBuildsAWindowOfEveryGroupWithValidAccelerators() async throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        Layouts.register()

        let window = Layouts.builder("shortcuts").object("shortcuts", as: GtkWidget.self)
        defer { gtk_widget_destroy(window) }

        // The window also keeps copies of the shortcuts for its search: only those in the groups count.
        let groups = descendants(of: window).filter { typeName($0) == "GtkShortcutsGroup" }
        XCTAssertEqual(groups.map { stringProperty("title", of: $0) }, ["Map", "Pins", "Photo Album", "Photo Viewer", "General"])
        let shortcutsByGroup = groups.map { descendants(of: $0).filter { typeName($0) == "GtkShortcutsShortcut" } }
        XCTAssertEqual(shortcutsByGroup.map(\.count), [6, 2, 4, 3, 2])
        let shortcuts = shortcutsByGroup.flatMap { $0 }
        for shortcut in shortcuts {
            let accelerator = stringProperty("accelerator", of: shortcut)
            for key in accelerator.split(separator: " ") {
                var keyval: guint = 0
                gtk_accelerator_parse(String(key), &keyval, nil)
                XCTAssertNotEqual(keyval, 0, "\(stringProperty("title", of: shortcut)): \(key) is no key GTK knows")
            }
        }
    }

    /// Every widget inside `widget`, GTK's internal ones included (a shortcuts window keeps its groups in its own pages).
    @MainActor
    private func descendants(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        let found = FoundWidgets()
        let box = Unmanaged.passRetained(found)
        defer { box.release() }
        gtk_container_forall(widget.cast(), collectDescendant, box.toOpaque())
        return found.widgets
    }

    private func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
    }

    private func stringProperty(_ name: String, of widget: UnsafeMutablePointer<GtkWidget>) -> String {
        var value = GValue()
        g_value_init(&value, g_type_from_name("gchararray"))
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), name, &value)
        return g_value_get_string(&value).map { String(cString: $0) } ?? ""
    }
}

private final class FoundWidgets {
    var widgets: [UnsafeMutablePointer<GtkWidget>] = []
}

/// gtk_container_forall's callback: records `child` and walks into it.
private func collectDescendant(_ child: UnsafeMutablePointer<GtkWidget>?, _ data: gpointer?) {
    guard let child, let data else { return }
    Unmanaged<FoundWidgets>.fromOpaque(data).takeUnretainedValue().widgets.append(child)
    let instance = UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self)
    if g_type_check_instance_is_a(instance, gtk_container_get_type()) != 0 {
        gtk_container_forall(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkContainer.self), collectDescendant, data)
    }
}

import CGtk
import CShims
@testable import TouristUI
import XCTest

final class ShortcutsWindowTests: XCTestCase {
    func testTheShortcutsDefinitionBuildsWithoutErrors() throws {
        guard gtk_init_check(nil, nil) != 0 else { throw XCTSkip("no display") }
        let builder = gtk_builder_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        var error: UnsafeMutablePointer<GError>?

        let added = gtk_builder_add_from_string(builder, ShortcutsWindow.definition, gsize.max, &error)

        XCTAssertNotEqual(added, 0, error.map { String(cString: $0.pointee.message) } ?? "unknown error")
        XCTAssertNotNil(vt_builder_get_widget(builder, "shortcuts"))
        if let error { g_error_free(error) }
        for group in ShortcutsWindow.groups {
            XCTAssertTrue(ShortcutsWindow.definition.contains("<property name=\"title\">\(group.title)</property>"))
        }
    }
}

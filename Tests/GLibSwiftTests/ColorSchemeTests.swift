import CGtk
import GLibSwift
import XCTest

/// The desktop's colour-scheme values as the portal and GSettings deliver them (the e2e test drives the live paths).
final class ColorSchemeTests: XCTestCase {
    func testReadOneAndTheOlderReadGiveTheSamePreferenceThoughReadWrapsItOnceMore() throws {
        for (value, expected) in [(UInt32(1), ColorSchemePreference.preferDark), (2, .preferLight), (0, .noPreference)] {
            let readOne = try variant { g_variant_new_variant(g_variant_new_uint32(value)) }
            let read = try variant { g_variant_new_variant(g_variant_new_variant(g_variant_new_uint32(value))) }
            defer { g_variant_unref(readOne); g_variant_unref(read) }
            XCTAssertEqual(ColorSchemePreference(portalVariant: readOne), expected, "ReadOne's <\(value)>")
            XCTAssertEqual(ColorSchemePreference(portalVariant: read), expected, "Read's <<\(value)>>")
        }
    }

    func testAPortalValueNewerThanThisCodeMeansNoPreferenceAndOneThatIsNoNumberIsRefused() throws {
        let future = try variant { g_variant_new_variant(g_variant_new_uint32(3)) }
        let text = try variant { g_variant_new_variant(g_variant_new_string("prefer-dark")) }
        defer { g_variant_unref(future); g_variant_unref(text) }
        XCTAssertEqual(ColorSchemePreference(portalVariant: future), .noPreference)
        XCTAssertNil(ColorSchemePreference(portalVariant: text))
    }

    func testGNOMEsNicks() {
        XCTAssertEqual(ColorSchemePreference(settingsValue: "prefer-dark"), .preferDark)
        XCTAssertEqual(ColorSchemePreference(settingsValue: "prefer-light"), .preferLight)
        XCTAssertEqual(ColorSchemePreference(settingsValue: "default"), .noPreference)
    }

    /// A variant built by `make`, owned by the caller (GLib's constructors return floating references).
    private func variant(_ make: () -> OpaquePointer?) throws -> OpaquePointer {
        try XCTUnwrap(g_variant_ref_sink(make()))
    }
}

import CGtk
@testable import MapView
import XCTest

final class PinImageTests: XCTestCase {
    func testThePinImageHasTwiceThePixelsAtScaleFactorTwo() {
        MainActor.assumeIsolated {
            let normal = PinImage(scale: 1), sharp = PinImage(scale: 2)
            XCTAssertEqual(cairo_image_surface_get_width(normal.surface), Int32(PinImage.width))
            XCTAssertEqual(cairo_image_surface_get_width(sharp.surface), Int32(PinImage.width) * 2)
            XCTAssertEqual(cairo_image_surface_get_height(sharp.surface), Int32(PinImage.height) * 2)
        }
    }

    func testHitTestingFollowsThePinsShapeAtEveryScale() {
        MainActor.assumeIsolated {
            for scale in [Int32(1), 2] {
                let image = PinImage(scale: scale)
                // Offsets from the tip: the head's middle, just above the tip, beside the head, far away.
                XCTAssertTrue(image.contains(dx: 0, dy: -25), "head, scale \(scale)")
                XCTAssertTrue(image.contains(dx: 0, dy: -4), "just above the tip, scale \(scale)")
                XCTAssertTrue(image.contains(dx: 9, dy: -25), "the head's right side, scale \(scale)")
                XCTAssertFalse(image.contains(dx: 12, dy: -3), "beside the point: transparent, scale \(scale)")
                XCTAssertFalse(image.contains(dx: -13, dy: -38), "the image's corner: transparent, scale \(scale)")
                XCTAssertFalse(image.contains(dx: 40, dy: 0), "outside the image, scale \(scale)")
            }
        }
    }
}

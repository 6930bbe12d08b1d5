import MapView
import XCTest

/// A library's pins are prepared for the layer off the main thread: the set carries the draw order.
final class PinSetTests: XCTestCase {
    func testPinsAreKeptNorthToSouthWithTheirColours() {
        let pins = PinSet([
            PinMark(key: 1, latitude: -33.9, longitude: 151.2),
            PinMark(key: 2, latitude: 64.1, longitude: -21.9, tint: .blue),
            PinMark(key: 3, latitude: 48.9, longitude: 2.35),
        ])
        XCTAssertEqual(pins.marks.map(\.key), [2, 3, 1], "northern pins first: southern ones overlap them")
        XCTAssertEqual(pins.marks.first?.tint, .blue)
        XCTAssertEqual(PinSet(pins.marks.reversed()), pins, "equal when they show the same pins")
        XCTAssertNotEqual(PinSet(Array(pins.marks.dropLast())), pins)
    }
}

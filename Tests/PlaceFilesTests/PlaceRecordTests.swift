import PlaceFiles
import XCTest

final class PlaceRecordTests: XCTestCase {
    func testKeepsWhatItIsGiven() {
        let record = PlaceRecord(name: "Eiffel Tower", latitude: 48.8584, longitude: 2.2945)
        XCTAssertEqual(record.name, "Eiffel Tower")
        XCTAssertNil(record.photoCount)
    }
}

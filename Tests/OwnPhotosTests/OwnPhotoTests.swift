import OwnPhotos
import XCTest

final class OwnPhotoTests: XCTestCase {
    func testKeepsWhatItIsGiven() {
        let photo = OwnPhoto(path: "/p/a.jpg", latitude: 1, longitude: 2, takenAt: nil, orientation: 6)
        XCTAssertEqual(photo.orientation, 6)
    }
}

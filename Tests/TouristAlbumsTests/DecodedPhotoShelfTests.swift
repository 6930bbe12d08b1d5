import FlickrClient
@testable import TouristAlbums
import XCTest

final class DecodedPhotoShelfTests: XCTestCase {
    private final class Decode: DecodedPhoto {}

    @MainActor
    func testTheShelfKeepsTheNewestDecodesUpToItsCapacity() async {
        let shelf = DecodedPhotoShelf(capacity: 2)
        let first = Decode(), second = Decode(), third = Decode()

        shelf.put(first, photoID: 1)
        shelf.put(second, photoID: 2)
        shelf.put(third, photoID: 3)

        XCTAssertEqual(shelf.count, 2)
        XCTAssertNil(shelf.take(1), "the oldest went first: the grid decodes its file instead")
        XCTAssertTrue(shelf.take(2) === second)
        XCTAssertTrue(shelf.take(3) === third)
        XCTAssertEqual(shelf.count, 0)
    }

    @MainActor
    func testADecodeOfTheSamePhotoReplacesTheOlderOne() async {
        let shelf = DecodedPhotoShelf(capacity: 2)
        let old = Decode(), new = Decode()

        shelf.put(old, photoID: 7)
        shelf.put(new, photoID: 7)
        shelf.put(Decode(), photoID: 8)

        XCTAssertTrue(shelf.take(7) === new, "a retried download's decode is the one shown")
        XCTAssertEqual(shelf.count, 1)
    }
}

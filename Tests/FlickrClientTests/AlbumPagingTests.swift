import FlickrClient
import FlickrTestSupport
import XCTest

final class AlbumPagingTests: XCTestCase {
    private struct Item: Identifiable, Equatable {
        var id: String
    }

    private func draws(pages: Int, perPage: Int, current: Int?, count: Int = 2000) -> [Int] {
        var generator = SeededGenerator(seed: 42)
        return (0..<count).map { _ in
            AlbumPaging.randomPage(pages: pages, perPage: perPage, currentPage: current, using: &generator)
        }
    }

    func testRandomPageStaysWithinTheFirst4000Results() {
        // 462 pages of 30, but only 4000 / 30 = 133 pages are reachable.
        let pages = draws(pages: 462, perPage: 30, current: 1)

        XCTAssertEqual(pages.min(), 2)
        XCTAssertEqual(pages.max(), 133)
        XCTAssertEqual(AlbumPaging.lastReachablePage(pages: 462, perPage: 30), 133)
    }

    func testRandomPageNeverRepeatsTheCurrentOne() {
        let pages = draws(pages: 3, perPage: 30, current: 2)

        XCTAssertFalse(pages.contains(2))
        XCTAssertEqual(Set(pages), [1, 3], "both other pages come up")
    }

    func testRandomPageCoversEveryPageWithoutACurrentOne() {
        XCTAssertEqual(Set(draws(pages: 4, perPage: 30, current: nil)), [1, 2, 3, 4])
        XCTAssertEqual(Set(draws(pages: 4, perPage: 30, current: 99)), [1, 2, 3, 4], "a current page out of range is ignored")
    }

    func testSingleOrNoPageIsAlwaysPageOne() {
        XCTAssertEqual(Set(draws(pages: 1, perPage: 30, current: 1, count: 50)), [1])
        XCTAssertEqual(Set(draws(pages: 0, perPage: 30, current: 1, count: 50)), [1])
        XCTAssertEqual(Set(draws(pages: 0, perPage: 30, current: nil, count: 50)), [1])
    }

    func testLargePagesShrinkTheReachableRange() {
        XCTAssertEqual(AlbumPaging.lastReachablePage(pages: 100, perPage: 500), 8)
        XCTAssertEqual(AlbumPaging.lastReachablePage(pages: 100, perPage: 5000), 1)
        XCTAssertEqual(AlbumPaging.lastReachablePage(pages: 3, perPage: 30), 3)
        XCTAssertEqual(Set(draws(pages: 100, perPage: 500, current: 8)), Set(1...7))
    }

    func testUnseenPhotosComeFirstInPageOrder() {
        let page = ["a", "b", "c", "d", "e"].map(Item.init)

        let chosen = AlbumPaging.preferringUnseen(page, seen: ["b", "d"], limit: 3)

        XCTAssertEqual(chosen.map(\.id), ["a", "c", "e"])
    }

    func testSeenPhotosFillInOnlyWhenUnseenRunOut() {
        let page = ["a", "b", "c", "d", "e"].map(Item.init)

        let chosen = AlbumPaging.preferringUnseen(page, seen: ["a", "b", "d"], limit: 4)

        XCTAssertEqual(chosen.map(\.id), ["c", "e", "a", "b"])
    }

    func testSelectionDropsDuplicatesAndRespectsTheLimit() {
        let page = ["a", "a", "b", "c"].map(Item.init)

        XCTAssertEqual(AlbumPaging.preferringUnseen(page, seen: [], limit: 10).map(\.id), ["a", "b", "c"])
        XCTAssertEqual(AlbumPaging.preferringUnseen(page, seen: [], limit: 0), [])
        XCTAssertEqual(AlbumPaging.preferringUnseen([Item](), seen: ["a"], limit: 3), [])
    }
}

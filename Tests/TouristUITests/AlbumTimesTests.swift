@testable import TouristUI
import XCTest

/// The times an album offers, and how an album's years show as a decade and a year.
final class AlbumTimesTests: XCTestCase {
    func testDecadesRunFromThisOneBackToThe1970s() {
        XCTAssertEqual(AlbumTimes(currentYear: 2026).decades, [2020, 2010, 2000, 1990, 1980, 1970])
        XCTAssertEqual(AlbumTimes(currentYear: 2030).decades.first, 2030)
    }

    func testTheYearsOfADecadeStopAtThisYear() {
        XCTAssertEqual(AlbumTimes(currentYear: 2026).years(of: 2020), [2026, 2025, 2024, 2023, 2022, 2021, 2020])
        XCTAssertEqual(AlbumTimes(currentYear: 2026).years(of: 2010).count, 10)
    }

    func testAnAlbumsYearsShowAsADecadeAndAYear() {
        XCTAssertTrue(AlbumTimes.choice(for: nil) == (nil, nil))
        XCTAssertTrue(AlbumTimes.choice(for: 2010...2019) == (2010, nil))
        XCTAssertTrue(AlbumTimes.choice(for: 2015...2015) == (2010, 2015))
        XCTAssertTrue(AlbumTimes.choice(for: 2012...2016) == (nil, nil), "years the chooser cannot show: any time")
    }

    func testAChoiceBecomesTheYearsToSearch() {
        XCTAssertNil(AlbumTimes.years(decade: nil, year: nil))
        XCTAssertEqual(AlbumTimes.years(decade: 2010, year: nil), 2010...2019)
        XCTAssertEqual(AlbumTimes.years(decade: 2010, year: 2015), 2015...2015)
    }

    func testADecadeReadsAsOne() {
        XCTAssertEqual(AlbumTimes.decadeLabel(1990), "1990s")
    }
}

import Foundation
import XCTest
@testable import MapTiles

/// What a tile server's answer means for keeping its tile: a private cache's reading of RFC 9111, with
/// OpenStreetMap's week as the floor.
final class TileFreshnessTests: XCTestCase {
    private let day: TimeInterval = 24 * 60 * 60
    private let received = Date(timeIntervalSince1970: 1_800_000_000) // Fri, 15 Jan 2027 08:00:00 GMT
    private let serverDate = "Fri, 15 Jan 2027 08:00:00 GMT"

    private func freshFor(_ fields: [(name: String, value: String)]) -> TimeInterval {
        TileFreshness(response: fields, receivedAt: received).freshUntil.timeIntervalSince(received)
    }

    func testNothingSaidOrLessThanAWeekIsAWeek() {
        XCTAssertEqual(freshFor([]), 7 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=300")]), 7 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=0")]), 7 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=soon")]), 7 * day, "an invalid max-age is expired")
        XCTAssertEqual(freshFor([("Date", serverDate), ("Expires", "0")]), 7 * day, "an invalid Expires is expired")
    }

    func testALongerMaxAgeIsHonouredLessTheAgeCachesOnTheWayHeldIt() {
        XCTAssertEqual(freshFor([("cache-control", "public, MAX-AGE=\"2592000\"")]), 30 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=2592000"), ("Age", "86400")]), 29 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=99999999999999999999")]), 2_147_483_648, "capped as RFC 9111 says")
    }

    func testSMaxAgeIsForSharedCachesAndThisOneIsPrivate() {
        XCTAssertEqual(freshFor([("Cache-Control", "s-maxage=2592000")]), 7 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "s-maxage=60, max-age=2592000")]), 30 * day)
    }

    func testExpiresCountsFromTheResponsesDateAndMaxAgeWinsOverIt() {
        // The server's clock is ten days behind this one: only Expires − Date counts.
        XCTAssertEqual(freshFor([("Date", "Tue, 05 Jan 2027 08:00:00 GMT"), ("Expires", "Thu, 04 Feb 2027 08:00:00 GMT")]),
                       30 * day)
        XCTAssertEqual(freshFor([("Expires", "Sun, 14 Feb 2027 08:00:00 GMT")]), 30 * day, "no Date: the time it came")
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=864000"), ("Date", serverDate),
                                 ("Expires", "Sun, 14 Feb 2027 08:00:00 GMT")]), 10 * day, "max-age first")
        // The two obsolete forms a recipient must still read.
        XCTAssertEqual(freshFor([("Date", "Friday, 15-Jan-27 08:00:00 GMT"), ("Expires", "Sunday, 14-Feb-27 08:00:00 GMT")]),
                       30 * day)
        XCTAssertEqual(freshFor([("Date", "Tue Jan  5 08:00:00 2027"), ("Expires", "Thu Feb  4 08:00:00 2027")]), 30 * day)
    }

    func testNoCacheAndNoStoreGetTheWeekFloorLikeAnyShortLifetime() {
        XCTAssertEqual(freshFor([("Cache-Control", "no-cache")]), 7 * day)
        XCTAssertEqual(freshFor([("Cache-Control", "max-age=2592000, No-Store")]), 30 * day)
    }

    func testValidatorsAreKeptVerbatimAndSentBackAsConditions() {
        let kept = TileFreshness(response: [("ETag", "W/\"abc\""), ("Last-Modified", serverDate)], receivedAt: received)
        XCTAssertEqual(kept.etag, "W/\"abc\"")
        XCTAssertEqual(kept.lastModified, serverDate)
        XCTAssertEqual(kept.conditionalHeaders.map(\.0), ["If-None-Match", "If-Modified-Since"])
        XCTAssertEqual(kept.conditionalHeaders.map(\.1), ["W/\"abc\"", serverDate])
        XCTAssertEqual(TileFreshness(response: [("ETag", "bad\u{1}tag")], receivedAt: received).etag, nil,
                       "a validator that would make the request invalid is not kept")
        XCTAssertTrue(TileFreshness(response: [], receivedAt: received).conditionalHeaders.isEmpty)
    }

    func testANotModifiedRenewsFromItsOwnHeadersAndKeepsValidatorsItLeavesOut() {
        let kept = TileFreshness(etag: "\"a\"", lastModified: serverDate, freshUntil: received)
        let later = received + 10 * day
        let renewed = kept.renewed(byNotModified: [("Cache-Control", "max-age=2592000")], receivedAt: later)
        XCTAssertEqual(renewed, TileFreshness(etag: "\"a\"", lastModified: serverDate, freshUntil: later + 30 * day))
        XCTAssertEqual(kept.renewed(byNotModified: [("ETag", "\"b\"")], receivedAt: later),
                       TileFreshness(etag: "\"b\"", lastModified: serverDate, freshUntil: later + 7 * day))
    }
}

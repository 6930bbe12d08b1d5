import Foundation
import OnTheMapAPI
import XCTest

/// Dates on the wire: whole milliseconds, written as stored and read back to the same text.
final class DateFormatTests: XCTestCase {
    func testEveryMillisecondIsWrittenAsItIsAndReadBackToTheSameText() throws {
        let base: Int64 = 1_700_000_014_000 // 2023-11-14T22:13:34Z
        for offset in Int64(0)..<2000 {
            let milliseconds = base + offset
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = OnTheMapDateFormat.string(from: date)
            XCTAssertTrue(text.hasSuffix(String(format: ".%03dZ", Int(milliseconds % 1000))), text)
            let parsed = try XCTUnwrap(OnTheMapDateFormat.date(from: text), text)
            XCTAssertEqual(OnTheMapDateFormat.string(from: parsed), text)
        }
        XCTAssertEqual(OnTheMapDateFormat.string(from: Date(timeIntervalSince1970: 1_700_000_014.2169)),
                       "2023-11-14T22:13:34.217Z", "the nearest millisecond, not the truncated one")
        XCTAssertEqual(OnTheMapDateFormat.string(from: Date(timeIntervalSince1970: -0.0004)), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(OnTheMapDateFormat.string(from: Date(timeIntervalSince1970: -1.5)), "1969-12-31T23:59:58.500Z")
    }
}

import Foundation
@testable import AppLogging
import Logging
import XCTest

/// The apps' log lines: StreamLogHandler's shape, stamped to the microsecond with the time they were written.
final class StampedLogHandlerTests: XCTestCase {
    /// What `body` logs through a handler writing into a pipe, as text.
    private func logged(_ body: (inout Logger) -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        var logger = Logger(label: "virtual-tourist") { label in StampedLogHandler(label: label, descriptor: ends[1]) }
        logger.logLevel = .info
        body(&logger)
        close(ends[1])
        let text = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: text, as: UTF8.self)
    }

    func testALineIsStampedToTheMicrosecondWhenItWasWritten() throws {
        let before = Date()
        let text = try logged { logger in
            logger.info("album 7: photos painted, 30 of 30", source: "TouristUI")
            logger.debug("below the level: not written")
        }
        let after = Date()

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one line, ended by a newline: \(text)")
        let pattern = try NSRegularExpression(pattern:
            #"^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}[+-][0-9]{4}) info virtual-tourist: \[TouristUI\] album 7: photos painted, 30 of 30$"#)
        let line = String(lines[0])
        let match = try XCTUnwrap(pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
        let stamp = (line as NSString).substring(with: match.range(at: 1))
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSSSSZ"
        let written = try XCTUnwrap(format.date(from: stamp), stamp)
        // DateFormatter keeps milliseconds: the stamp is within a millisecond of the interval it was written in.
        XCTAssertGreaterThanOrEqual(written.timeIntervalSince(before), -0.001)
        XCTAssertLessThanOrEqual(written.timeIntervalSince(after), 0.001)
    }

    func testMetadataIsWrittenSortedBeforeTheSource() throws {
        let text = try logged { logger in
            logger[metadataKey: "pin"] = "7"
            logger.warning("Could not read the album", metadata: ["error": "disk full"], source: "TouristUI")
        }
        XCTAssertTrue(text.hasSuffix(" warning virtual-tourist: error=disk full pin=7 [TouristUI] Could not read the album\n"),
                      text)
    }

    func testTheMicrosecondsKeepTheirLeadingZeros() {
        for _ in 0..<200 {
            let stamp = StampedLogHandler.timestamp()
            let fraction = stamp.split(separator: ".")[1].prefix { $0.isNumber }
            XCTAssertEqual(fraction.count, 6, stamp)
        }
    }

    func testTheLevelIsTheEnvironmentsInAnyCaseElseWarning() {
        XCTAssertEqual(StampedLogHandler.level(named: "TRACE"), .trace)
        XCTAssertEqual(StampedLogHandler.level(named: "debug"), .debug)
        XCTAssertEqual(StampedLogHandler.level(named: "loud"), .warning)
        XCTAssertEqual(StampedLogHandler.level(named: nil), .warning)
    }
}

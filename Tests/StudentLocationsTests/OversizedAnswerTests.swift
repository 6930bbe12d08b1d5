import Foundation
import OnTheMapAPI
@testable import StudentLocations
import XCTest

/// A service that answers `limit=100` with far more: the client reads at most `answerByteLimit`, keeps the newest
/// 100 of what it read, says so, and stays off the main actor while it does.
final class OversizedAnswerTests: XCTestCase {
    /// 200,000 entries of about 300 bytes: 60 MB, as the misbehaving service in issue 34 sends.
    private static let floodSize = 200_000

    /// The flood's newest 100 sit among its first 1.1 MB, out of order; every other entry is older.
    private static func flood(_ index: Int) -> String {
        let rank = index >= 5 && (index - 5) % 37 == 0 && (index - 5) / 37 < 100 ? (index - 5) / 37 : nil
        let minute = rank.map { ($0 * 53) % 100 }
        let updated = minute.map { String(format: "2026-03-01T%02d:%02d:00.000Z", $0 / 60, $0 % 60) }
            ?? String(format: "2025-%02d-%02dT00:00:00.000Z", 1 + index % 12, 1 + index % 28)
        let name = minute.map { String(format: "\"firstName\":\"Newest\",\"lastName\":\"Flood %03d\"", $0) }
            ?? String(format: "\"firstName\":\"Flood\",\"lastName\":\"Student %06d\"", index)
        return "{\"objectId\":\"flood\(index)\",\"uniqueKey\":\"flood-\(index)\",\(name),"
            + "\"mapString\":\"Somewhere on Earth, far away\","
            + "\"mediaURL\":\"https://example.org/flood/\(index)\",\"latitude\":\(index % 170 - 85),"
            + "\"longitude\":\(index % 360 - 180),\"createdAt\":\"2025-01-01T00:00:00.000Z\",\"updatedAt\":\"\(updated)\"}"
    }

    private static let floodNewestFirst = (0..<100).reversed().map { String(format: "Newest Flood %03d", $0) }

    /// How many of the flood's entries are whole within its first `byteLimit` bytes.
    private static func wholeFloodEntries(within byteLimit: Int) -> Int {
        var end = "{\"results\":[".utf8.count
        for index in 0..<floodSize {
            end += (index == 0 ? 0 : 1) + flood(index).utf8.count
            if end > byteLimit { return index }
        }
        return floodSize
    }

    func testAnAnswerOverTheLimitIsReadUpToItAndTheNewest100OfThatAreKept() async throws {
        let service = try FloodingServer(entries: Self.floodSize, entry: Self.flood)
        defer { service.stop() }

        let recent = try await makeClient(service.apiURL).recentLocations(limit: 100)

        XCTAssertEqual(recent.students.map(\.fullName), Self.floodNewestFirst)
        let read = Self.wholeFloodEntries(within: OnTheMapClient.answerByteLimit)
        XCTAssertEqual(recent.excess, .cutOff(byteLimit: 4_000_000, read: read, shown: 100))
        XCTAssertEqual(recent.excess?.description,
                       "Showing the newest 100 of the first \(read.formatted(.number.locale(Locale(identifier: "en_US")))) "
                           + "locations: the server sent more than 4 MB, far more than asked for, so On the Map "
                           + "stopped reading there.")
        // 60 MB at 50 MB/s: the client hung up long before the end (the rest is what the sockets' buffers took).
        XCTAssertLessThan(service.bytesSent, 20_000_000, "the client stopped reading at the limit")
    }

    func testMoreThanAskedForButUnderTheLimitIsReadWholeAndTheNewest100Kept() async throws {
        // 1,000 entries, their times a permutation: the newest are scattered through the answer.
        let service = try FloodingServer(entries: 1000) { index in
            let second = (index * 7919) % 1000
            return "{\"objectId\":\"o\(index)\",\"firstName\":\"Second\",\"lastName\":\"\(second)\",\"latitude\":1,"
                + "\"longitude\":2,\"updatedAt\":\"2026-03-01T00:\(String(format: "%02d:%02d", second / 60, second % 60)).000Z\"}"
        }
        defer { service.stop() }

        let recent = try await makeClient(service.apiURL).recentLocations(limit: 100)

        XCTAssertEqual(recent.students.map(\.lastName), (900..<1000).reversed().map(String.init))
        XCTAssertEqual(recent.excess, .moreThanAsked(sent: 1000, asked: 100, shown: 100))
        XCTAssertEqual(recent.excess?.description,
                       "Showing the newest 100 of 1,000 locations: the server sent more than the 100 asked for.")
    }

    func testAnAnswerOverTheLimitWithoutOneWholeEntryIsAServerFailure() async throws {
        let service = try FloodingServer(entries: 1) { _ in
            "{\"objectId\":\"huge\",\"mapString\":\"" + String(repeating: "x", count: 5_000_000) + "\"}"
        }
        defer { service.stop() }

        do {
            _ = try await makeClient(service.apiURL).recentLocations(limit: 100)
            XCTFail("read a class from an answer with no whole entry")
        } catch {
            XCTAssertEqual(error, .serverFailed(detail: "its answer was larger than 4 MB"))
            XCTAssertEqual(error.description, "The server failed (its answer was larger than 4 MB). Try again later.")
        }
    }

    func testLookingUpMyLocationInAnAnswerOverTheLimitIsAServerFailure() async throws {
        // Part of a list can't say that I have no location: posting again would give me a second pin.
        let service = try FloodingServer(entries: Self.floodSize, entry: Self.flood)
        defer { service.stop() }

        do {
            _ = try await makeClient(service.apiURL).location(of: "flood-5")
            XCTFail("looked a student up in a cut-off answer")
        } catch {
            XCTAssertEqual(error, .serverFailed(detail: "its answer was larger than 4 MB"))
        }
    }

    @MainActor
    func testTheDirectoryShowsTheNewest100WithoutHoldingTheMainActorAndARefreshBringsTheClassBack() async throws {
        let service = try FloodingServer(entries: Self.floodSize, entry: Self.flood)
        defer { service.stop() }
        let directory = StudentDirectory(api: makeClient(service.apiURL))
        // Ticks on the main actor while the directory downloads and decodes: a long gap means it was held.
        let ticker = Task { @MainActor in
            var last = ContinuousClock.now
            var longest = Duration.zero
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
                longest = max(longest, ContinuousClock.now - last)
                last = .now
            }
            return longest
        }

        await directory.refresh()
        ticker.cancel()
        let longestGap = await ticker.value

        XCTAssertEqual(directory.state, .loaded)
        XCTAssertEqual(directory.students.map(\.fullName), Self.floodNewestFirst)
        guard case .cutOff(_, _, shown: 100) = directory.excess else { return XCTFail("\(String(describing: directory.excess))") }
        XCTAssertLessThan(longestGap, .milliseconds(150), "the main actor was held while the answer was read")

        service.setEntries(3)
        await directory.refresh()

        XCTAssertEqual(directory.state, .loaded)
        XCTAssertEqual(directory.students.count, 3)
        XCTAssertNil(directory.excess, "the message goes with the flood")
    }
}

/// The part of a cut-off list answer that still decodes.
final class CutOffListTests: XCTestCase {
    private func closed(_ text: String) -> String? {
        CutOffList.closed(Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    func testEveryWholeEntryIsKeptAndTheListClosed() throws {
        let text = try XCTUnwrap(closed(#"{"results":[{"a":"}]\"{["},{"b":[1,{"c":2}]},{"d":"cut h"#))
        XCTAssertEqual(text, #"{"results":[{"a":"}]\"{["},{"b":[1,{"c":2}]}]}"#)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    func testOnlyTheResultsArrayCounts() {
        XCTAssertEqual(closed(#"{"count":[1,{"x":1}],"results":[{"a":1},{"b""#), #"{"count":[1,{"x":1}],"results":[{"a":1}]}"#)
        XCTAssertNil(closed(#"{"other":[{"a":1},{"b""#))
        XCTAssertNil(closed(#"[{"results":1},{"b""#), "not an object")
        XCTAssertNil(closed(#"{"results":[{"a":"#), "no whole entry")
        XCTAssertNil(closed(""))
    }
}

import Foundation
import OnTheMapAPI
import StudentLocations
import XCTest

/// Each way a server can fail becomes the error that tells the person what to do.
final class FailureTests: XCTestCase {
    func testAStoppedServerIsUnreachable() async throws {
        let server = try await LiveServer.start()
        try await server.addStudent(email: "ada@example.org")
        await server.stop()

        do {
            _ = try await makeClient(server.apiURL).logIn(email: "ada@example.org", password: "correct horse")
            XCTFail("logged in to a stopped server")
        } catch {
            guard case .unreachable(let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("127.0.0.1:\(server.port)"), detail)
            XCTAssertEqual(error.title, "Can't reach the server")
            XCTAssertTrue(error.description.hasSuffix("Check your connection and try again."), error.description)
            XCTAssertTrue(error.isRetryable)
        }
    }

    func testAnUnknownHostIsUnreachable() async throws {
        let client = makeClient(URL(string: "https://no-such-host.invalid/v1/")!)
        do {
            _ = try await client.recentLocations(limit: 1)
            XCTFail("listed from a host that doesn't exist")
        } catch {
            guard case .unreachable(let detail) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("no-such-host.invalid"), detail)
        }
    }

    func testA500IsServerFailed() async throws {
        let canned = try CannedServer(status: 500, body: #"{"status": 500, "error": "boom"}"#)
        defer { canned.stop() }

        do {
            _ = try await makeClient(canned.apiURL).recentLocations(limit: 100)
            XCTFail("listed from a failing server")
        } catch {
            XCTAssertEqual(error, .serverFailed(detail: "HTTP 500"))
            XCTAssertEqual(error.title, "The server failed")
            XCTAssertEqual(error.description, "The server failed (HTTP 500). Try again later.")
        }
    }

    func testA502OnLoginIsServerFailedNotWrongPassword() async throws {
        let canned = try CannedServer(status: 502, body: "<html>Bad Gateway</html>")
        defer { canned.stop() }

        do {
            _ = try await makeClient(canned.apiURL).logIn(email: "ada@example.org", password: "correct horse")
            XCTFail("logged in through a broken proxy")
        } catch {
            XCTAssertEqual(error, .serverFailed(detail: "HTTP 502"))
        }
    }

    func testJunkInsteadOfJSONIsServerFailed() async throws {
        let canned = try CannedServer(status: 200, body: "not json")
        defer { canned.stop() }
        let client = makeClient(canned.apiURL)

        for attempt in 0..<2 {
            do {
                if attempt == 0 {
                    _ = try await client.recentLocations(limit: 100)
                } else {
                    _ = try await client.logIn(email: "ada@example.org", password: "correct horse")
                }
                XCTFail("accepted junk (attempt \(attempt))")
            } catch {
                guard case .serverFailed = error else { return XCTFail("\(error)") }
                XCTAssertTrue(error.description.contains("JSON"), error.description)
            }
        }
    }

    func testA4xxWithoutTheAPIsBodyIsRefusedWithAGenericMessage() async throws {
        let canned = try CannedServer(status: 418, body: "teapot")
        defer { canned.stop() }

        do {
            _ = try await makeClient(canned.apiURL).recentLocations(limit: 100)
            XCTFail("listed from a teapot")
        } catch {
            XCTAssertEqual(error, .refused(status: 418, message: ""))
            XCTAssertEqual(error.description, "The server refused the request (HTTP 418).")
        }
    }

    func testAPrefixedErrorBodyIsRead() async throws {
        let canned = try CannedServer(status: 400, body: ")]}'\n{\"status\": 400, \"error\": \"Send a password.\"}")
        defer { canned.stop() }

        do {
            _ = try await makeClient(canned.apiURL).logIn(email: "ada@example.org", password: "")
            XCTFail("logged in without a password")
        } catch {
            XCTAssertEqual(error, .refused(status: 400, message: "Send a password."))
        }
    }

    func testOneBrokenEntryDoesNotHideTheOthers() async throws {
        // Udacity's shared data has entries with nulls and missing fields.
        let body = """
            {"results": [
              {"objectId": "a", "uniqueKey": "k1", "firstName": "Ada", "lastName": null, "mapString": "London",
               "mediaURL": "https://ada.example.org", "latitude": 51.5, "longitude": -0.1,
               "createdAt": "2026-01-02T03:04:05.678Z", "updatedAt": "2026-01-02T03:04:05.678Z"},
              {"objectId": "b", "firstName": "No place"},
              {"objectId": "c", "latitude": 10, "longitude": 20, "updatedAt": "2026-01-01T00:00:00Z"}
            ]}
            """
        let canned = try CannedServer(status: 200, body: body)
        defer { canned.stop() }

        let students = try await makeClient(canned.apiURL).recentLocations(limit: 100).students

        XCTAssertEqual(students.map(\.objectId), ["a", "c"])
        XCTAssertEqual(students[0].fullName, "Ada")
        XCTAssertEqual(students[1].fullName, "Someone")
        XCTAssertEqual(students[1].createdAt, students[1].updatedAt)
    }

    /// A right-to-left override in a name would reverse the list's line around it; a name is one line, capped.
    func testNamesAndPlacesArriveAsPlainText() async throws {
        let body = """
            {"results": [
              {"objectId": "a", "firstName": "Ada\\u202E", "lastName": "Love\\nlace", "mapString": "\\u2066London\\u2069,\\tUK",
               "latitude": 51.5, "longitude": -0.1, "updatedAt": "2026-01-02T03:04:05.678Z"},
              {"objectId": "b", "firstName": "\(String(repeating: "x", count: 10_257))", "latitude": 1, "longitude": 2,
               "updatedAt": "2026-01-01T00:00:00Z"}
            ]}
            """
        let canned = try CannedServer(status: 200, body: body)
        defer { canned.stop() }

        let students = try await makeClient(canned.apiURL).recentLocations(limit: 100).students

        XCTAssertEqual(students.map(\.fullName), ["Ada Love lace", String(repeating: "x", count: 199) + "…"])
        XCTAssertEqual(students[0].mapString, "London, UK")
    }
}

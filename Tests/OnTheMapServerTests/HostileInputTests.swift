import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// What a hostile or careless client sends: NULs, lengths counted the wrong way, look-alike emails, requests sent all
/// at once to slip past a limit, broken bodies, and links a browser opens. Each is refused with a 4xx that says why
/// (never a 500), or taken as a browser would.
class HostileInputTests: ServerTestCase {
    func testNULIsRefusedEverywhereWithA4xxNotA500() async throws {
        try await server.addAccount(email: "victim@example.org")
        let login = try await client.login("victim@example.org\u{0}anything", "correct horse")
        try assertError(login, 400, prefixed: true, containing: "NUL")
        let nulPassword = try await client.login("victim@example.org", "correct horse\u{0}")
        try assertError(nulPassword, 400, prefixed: true, containing: "NUL")

        let student = try await loggedInStudent("ada@example.org")
        var posting = StudentLocationPosting.sample(key: student.key)
        posting.firstName = "before\u{0}after"
        try assertError(try await client.post(posting, sessionId: student.sessionId), 400, containing: "NUL")
        try assertError(try await client.send("GET", "/v1/StudentLocation?uniqueKey=a%00b"), 400, containing: "NUL")
        let put = try await client.put("abc%00def", .sample(key: student.key), sessionId: student.sessionId)
        try assertError(put, 404)
        try assertError(try await client.send("GET", "/v1/users/abc%00def"), 404, prefixed: true)
        let stored = try await client.list()
        XCTAssertEqual(stored.count, 0, "nothing was stored")
    }

    func testLengthsCountUnicodeScalarsNotGraphemeClusters() async throws {
        let student = try await loggedInStudent()
        var posting = StudentLocationPosting.sample(key: student.key)
        posting.firstName = "a" + String(repeating: "\u{301}", count: 10_000) // one grapheme cluster, 20,001 bytes
        try assertError(try await client.post(posting, sessionId: student.sessionId), 400, containing: "too long")
        posting.firstName = "Zoë" + String(repeating: "x", count: 97) // 100 scalars: at the limit
        let atLimit = try await client.post(posting, sessionId: student.sessionId)
        XCTAssertEqual(atLimit.status, 200, atLimit.text)

        do {
            try await server.addAccount(email: "grace@example.org", firstName: "a" + String(repeating: "\u{301}", count: 200))
            XCTFail("a 201-scalar first name was accepted")
        } catch let error as AccountError {
            XCTAssertTrue(error.description.contains("too long"), error.description)
        }
    }

    func testAPasswordOfNULsIsRefusedAtSignUp() async throws {
        do {
            try await server.addAccount(email: "grace@example.org", password: String(repeating: "\u{0}", count: 8))
            XCTFail("a password of eight NULs was accepted")
        } catch let error as AccountError {
            XCTAssertTrue(error.description.contains("NUL"), error.description)
        }
        let empty = try await client.login("grace@example.org", "")
        try assertError(empty, 403, prefixed: true)
    }

    func testAnEmailInComposedAndDecomposedFormIsOneAccount() async throws {
        try await server.addAccount(email: "\u{E9}lise@example.org") // é as one scalar (NFC)
        do {
            try await server.addAccount(email: "E\u{301}LISE@Example.org") // E + combining acute (NFD), upper case
            XCTFail("the same email in NFD made a second account")
        } catch let error as AccountError {
            XCTAssertTrue(error.description.contains("already exists"), error.description)
        }
        let login = try await client.login("e\u{301}lise@EXAMPLE.org", "correct horse")
        XCTAssertEqual(login.status, 200, login.text)
    }

    func testWrongGuessesSentAtOnceAreAllCountedAgainstTheLimit() async throws {
        try await restart { $0.loginLimits = LoginLimits(failuresPerAccount: 5, failuresPerAddress: 1000, window: 900) }
        try await server.addAccount(email: "victim@example.org")
        let client = self.client!
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask { try await client.login("victim@example.org", "guess \(index)").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.filter { $0 == 403 }.count, 5, "only the limit's worth were checked: \(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 429 }.count, 35, "\(statuses)")
        let right = try await client.login("victim@example.org", "correct horse")
        try assertError(right, 429, prefixed: true, containing: "Too many failed logins")
    }

    func testASuccessfulLoginDoesNotCountAgainstItsAddress() async throws {
        try await restart { $0.loginLimits = LoginLimits(failuresPerAccount: 5, failuresPerAddress: 3, window: 900) }
        try await server.addAccount(email: "ada@example.org")
        for _ in 0..<6 { _ = try await client.session("ada@example.org") } // a classroom behind one address
        try assertError(try await client.login("ada@example.org", "guess"), 403, prefixed: true)
        let right = try await client.login("ada@example.org", "correct horse")
        XCTAssertEqual(right.status, 200, right.text)
    }

    func testAMalformedChunkedBodyIsTheClientsError() async throws {
        for (encoding, body) in [("xchunked", "5\r\nhello\r\n0\r\n\r\n"),
                                 ("chunked", "fffffffffffffffffff\r\nhello\r\n0\r\n\r\n"),
                                 ("chunked", "zz\r\nhello\r\n0\r\n\r\n")] {
            let connection = try RawHTTPConnection(port: server.port)
            let request = "POST /v1/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: \(encoding)\r\n\r\n\(body)"
            try connection.send(Data(request.utf8))
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, 400, "\(encoding) \(body.prefix(10)): \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    func testMediaURLTakesWhatABrowserOpensAndRefusesOtherSchemes() async throws {
        let student = try await loggedInStudent()
        for link in ["https://example.org/?q=' OR 1=1 --&x=<b>", "HTTP://Example.org/caf\u{E9}", "http://example.org:8080/a%20b#top",
                     "https://例え.jp/パス"] {
            let response = try await client.post(.sample(key: student.key, mediaURL: link), sessionId: student.sessionId)
            XCTAssertEqual(response.status, 200, "\(link): \(response.text)")
        }
        for link in ["javascript:alert(1)", "data:text/html,<b>", "file:///etc/passwd", "https://", "http:/example.org", "https://exa mple.org",
                     " https://example.org", "https://exa\u{7}mple.org", "example.org", "ftp://example.org"] {
            let response = try await client.post(.sample(key: student.key, mediaURL: link), sessionId: student.sessionId)
            try assertError(response, 400, containing: "mediaURL")
        }
        let stored = try await client.list().map(\.mediaURL)
        XCTAssertTrue(stored.contains("https://example.org/?q=' OR 1=1 --&x=<b>"), "kept as given: \(stored)")
    }

    func testPutAnswersExactlyTheUpdatedAtThatIsStored() async throws {
        let student = try await loggedInStudent()
        let created = try await client.post(.sample(key: student.key), sessionId: student.sessionId)
        let objectId = try created.decode(StudentLocationCreated.self).objectId
        // Times between milliseconds, as a real clock gives them: stored whole, they must be answered whole too.
        var mismatches: [String] = []
        for step in 0..<25 {
            clock.advance(by: 0.0173 + Double(step) * 0.00041)
            let updated = try await client.put(objectId, .sample(key: student.key, mapString: "Step \(step)"),
                                               sessionId: student.sessionId)
            let answered = try XCTUnwrap(updated.text.firstMatch(of: /"updatedAt":"([^"]+)"/)?.1)
            let listed = try await client.send("GET", "/v1/StudentLocation?limit=1").text
            let read = try XCTUnwrap(listed.firstMatch(of: /"updatedAt":"([^"]+)"/)?.1)
            if answered != read { mismatches.append("PUT \(answered), GET \(read)") }
        }
        XCTAssertEqual(mismatches, [], "PUT answered a time a GET does not return")
    }
}

final class HostileInputPostgresTests: HostileInputTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testNULIsRefusedEverywhereWithA4xxNotA500() async throws { try await super.testNULIsRefusedEverywhereWithA4xxNotA500() }
    override func testLengthsCountUnicodeScalarsNotGraphemeClusters() async throws { try await super.testLengthsCountUnicodeScalarsNotGraphemeClusters() }
    override func testAPasswordOfNULsIsRefusedAtSignUp() async throws { try await super.testAPasswordOfNULsIsRefusedAtSignUp() }
    override func testAnEmailInComposedAndDecomposedFormIsOneAccount() async throws { try await super.testAnEmailInComposedAndDecomposedFormIsOneAccount() }
    override func testWrongGuessesSentAtOnceAreAllCountedAgainstTheLimit() async throws { try await super.testWrongGuessesSentAtOnceAreAllCountedAgainstTheLimit() }
    override func testASuccessfulLoginDoesNotCountAgainstItsAddress() async throws { try await super.testASuccessfulLoginDoesNotCountAgainstItsAddress() }
    override func testAMalformedChunkedBodyIsTheClientsError() async throws { try await super.testAMalformedChunkedBodyIsTheClientsError() }
    override func testMediaURLTakesWhatABrowserOpensAndRefusesOtherSchemes() async throws { try await super.testMediaURLTakesWhatABrowserOpensAndRefusesOtherSchemes() }
    override func testPutAnswersExactlyTheUpdatedAtThatIsStored() async throws { try await super.testPutAnswersExactlyTheUpdatedAtThatIsStored() }
}

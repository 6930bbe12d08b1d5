import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// `/v1/session` and `/v1/users/{key}`: login, logout, expiry, rate limits, the anti-hijacking prefix.
class SessionRouteTests: ServerTestCase {
    func testLoginAnswersAccountAndSessionWithPrefixAndCookies() async throws {
        let account = try await server.addAccount(email: "ada@example.org")
        let response = try await client.login("  Ada@Example.org ", "correct horse")
        XCTAssertEqual(response.status, 200, response.text)
        XCTAssertTrue(response.text.hasPrefix(")]}'\n"), "the first 5 bytes are the prefix")
        let body = try response.decode(SessionResponse.self)
        XCTAssertEqual(body.account, .init(registered: true, key: account.key))
        XCTAssertEqual(body.session.id.count, 43)
        XCTAssertEqual(body.session.expiration, clock.now.addingTimeInterval(30 * 24 * 3600))
        let raw = try XCTUnwrap(String(data: OnTheMapHTTP.strippingPrefix(response.body), encoding: .utf8))
        XCTAssertNotNil(raw.range(of: #""expiration":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z""#, options: .regularExpression), raw)
        XCTAssertEqual(response.cookies[OnTheMapHTTP.sessionCookie], body.session.id)
        XCTAssertEqual(response.cookies[OnTheMapHTTP.xsrfCookie]?.count, 43)
        XCTAssertTrue(response.header("Set-Cookie")?.contains("HttpOnly") ?? false)
    }

    func testWrongPasswordAndUnknownEmailAre403WithUdacitysMessage() async throws {
        try await server.addAccount(email: "ada@example.org")
        for (email, password) in [("ada@example.org", "wrong password"), ("nobody@example.org", "correct horse")] {
            let response = try await client.login(email, password)
            try assertError(response, 403, prefixed: true, containing: "Account not found or invalid credentials.")
        }
    }

    func testMalformedLoginBodiesAre400() async throws {
        let bodies = [
            #"{"udacity": {"username": "ada@example.org"}}"#,
            #"{"udacity": {"username": "a", "password": "b"}, "facebook_mobile": {"access_token": "t"}}"#,
            #"{}"#,
            #"{"facebook_mobile": {"access_token": "t"}}"#,
            #"{"udacity": "ada"}"#,
            #"[1, 2]"#,
            #"not json"#,
        ]
        for body in bodies {
            let response = try await client.send("POST", "/v1/session", body: Data(body.utf8))
            try assertError(response, 400, prefixed: true)
        }
        let form = try await client.send("POST", "/v1/session", body: Data("username=a&password=b".utf8),
                                         contentType: "application/x-www-form-urlencoded")
        try assertError(form, 400, prefixed: true, containing: "Content-Type: application/json")
    }

    func testLogoutByCookieNeedsTheXSRFHeaderAndEndsTheSession() async throws {
        try await server.addAccount(email: "ada@example.org")
        let (id, _, login) = try await client.session("ada@example.org")
        let xsrf = try XCTUnwrap(login.cookies[OnTheMapHTTP.xsrfCookie])
        let cookie = "\(OnTheMapHTTP.sessionCookie)=\(id); \(OnTheMapHTTP.xsrfCookie)=\(xsrf)"

        let forged = try await client.send("DELETE", "/v1/session", headers: ["Cookie": cookie])
        try assertError(forged, 403, prefixed: true, containing: "X-XSRF-TOKEN")
        let wrongToken = try await client.send("DELETE", "/v1/session",
                                               headers: ["Cookie": cookie, "X-XSRF-TOKEN": "guess"])
        try assertError(wrongToken, 403, prefixed: true)

        let logout = try await client.send("DELETE", "/v1/session", headers: ["Cookie": cookie, "X-XSRF-TOKEN": xsrf])
        XCTAssertEqual(logout.status, 200, logout.text)
        XCTAssertTrue(logout.isPrefixed)
        XCTAssertEqual(try logout.decode(SessionEnded.self).session.id, id)
        XCTAssertEqual(logout.cookies[OnTheMapHTTP.sessionCookie], "")

        let afterwards = try await client.post(.sample(key: "k"), sessionId: id)
        try assertError(afterwards, 401, containing: "log in again")
    }

    func testLogoutBySessionIdHeaderNeedsNoXSRF() async throws {
        let student = try await loggedInStudent()
        let logout = try await client.send("DELETE", "/v1/session", headers: ["X-Session-Id": student.sessionId])
        XCTAssertEqual(logout.status, 200, logout.text)
        let again = try await client.send("DELETE", "/v1/session", headers: ["X-Session-Id": student.sessionId])
        try assertError(again, 401, prefixed: true)
        let none = try await client.send("DELETE", "/v1/session")
        try assertError(none, 401, prefixed: true, containing: "Log in first")
    }

    func testAKeptSessionIsCheckedWithoutSideEffectsUntilItEnds() async throws {
        let student = try await loggedInStudent()
        for _ in 0..<2 { // a check changes nothing: asked twice, the same answer
            let check = try await client.send("GET", "/v1/session", headers: ["X-Session-Id": student.sessionId])
            XCTAssertEqual(check.status, 200, check.text)
            XCTAssertTrue(check.isPrefixed)
            let body = try check.decode(SessionResponse.self)
            XCTAssertEqual(body.session.id, student.sessionId)
            XCTAssertEqual(body.account.key, student.key)
        }
        try assertError(try await client.send("GET", "/v1/session"), 401, prefixed: true)
        _ = try await client.send("DELETE", "/v1/session", headers: ["X-Session-Id": student.sessionId])
        let ended = try await client.send("GET", "/v1/session", headers: ["X-Session-Id": student.sessionId])
        try assertError(ended, 401, prefixed: true)
    }

    func testSessionExpiresAfterItsLifetime() async throws {
        try await restart { $0.sessionLifetime = 3600 }
        let student = try await loggedInStudent()
        clock.advance(by: 3599)
        let before = try await client.post(.sample(key: student.key), sessionId: student.sessionId)
        XCTAssertEqual(before.status, 200, before.text)
        clock.advance(by: 2)
        let after = try await client.post(.sample(key: student.key), sessionId: student.sessionId)
        try assertError(after, 401, containing: "expired")
    }

    func testRepeatedFailedLoginsForOneAccountAre429WithRetryAfter() async throws {
        try await restart { $0.loginLimits = LoginLimits(failuresPerAccount: 3, failuresPerAddress: 100, window: 600) }
        try await server.addAccount(email: "ada@example.org")
        try await server.addAccount(email: "grace@example.org")
        for _ in 0..<3 { try assertError(try await client.login("ada@example.org", "guess"), 403, prefixed: true) }

        let blocked = try await client.login("ada@example.org", "correct horse")
        try assertError(blocked, 429, prefixed: true, containing: "Too many failed logins")
        XCTAssertEqual(blocked.header("Retry-After"), "600")
        let other = try await client.login("grace@example.org", "correct horse")
        XCTAssertEqual(other.status, 200, "another account is not blocked")

        clock.advance(by: 601)
        let later = try await client.login("ada@example.org", "correct horse")
        XCTAssertEqual(later.status, 200, later.text)
    }

    func testRepeatedFailedLoginsFromOneAddressAre429AcrossAccounts() async throws {
        try await restart { $0.loginLimits = LoginLimits(failuresPerAccount: 100, failuresPerAddress: 4, window: 60) }
        try await server.addAccount(email: "ada@example.org")
        for index in 0..<4 {
            try assertError(try await client.login("student\(index)@example.org", "guess"), 403, prefixed: true)
        }
        let blocked = try await client.login("ada@example.org", "correct horse")
        try assertError(blocked, 429, prefixed: true)
        XCTAssertNotNil(blocked.header("Retry-After"))
    }

    func testUserRouteAnswersTheNamesGivenAtSignUpWithPrefix() async throws {
        let account = try await server.addAccount(email: "ada@example.org", firstName: "Ada", lastName: "Lovelace",
                                                  nickname: "Countess")
        let response = try await client.send("GET", "/v1/users/\(account.key)")
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.isPrefixed)
        XCTAssertTrue(response.text.contains(#""first_name":"Ada""#), response.text)
        XCTAssertEqual(try response.decode(PublicUserData.self),
                       PublicUserData(firstName: "Ada", lastName: "Lovelace", nickname: "Countess"))

        let unknown = try await client.send("GET", "/v1/users/12345")
        try assertError(unknown, 404, prefixed: true, containing: "12345")
    }
}

final class SessionRoutePostgresTests: SessionRouteTests {
    override class var storage: TestStorage { .postgres }

    /// Only PostgreSQL is shared by several servers: a guess through one counts on every other.
    func testServersSharingADatabaseShareTheFailedLoginLimit() async throws {
        try await restart { $0.loginLimits = LoginLimits(failuresPerAccount: 3, failuresPerAddress: 100, window: 600) }
        try await server.addAccount(email: "ada@example.org")
        let other = try await TestServer.start(database: database, clock: clock) {
            $0.loginLimits = LoginLimits(failuresPerAccount: 3, failuresPerAddress: 100, window: 600)
        }
        let otherClient = APIClient(baseURL: other.baseURL)
        try assertError(try await client.login("ada@example.org", "guess 1"), 403, prefixed: true)
        try assertError(try await otherClient.login("ada@example.org", "guess 2"), 403, prefixed: true)
        try assertError(try await client.login("ada@example.org", "guess 3"), 403, prefixed: true)
        let blocked = try await otherClient.login("ada@example.org", "correct horse")
        await other.stop()
        try assertError(blocked, 429, prefixed: true, containing: "Too many failed logins")
    }

    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testLoginAnswersAccountAndSessionWithPrefixAndCookies() async throws { try await super.testLoginAnswersAccountAndSessionWithPrefixAndCookies() }
    override func testWrongPasswordAndUnknownEmailAre403WithUdacitysMessage() async throws { try await super.testWrongPasswordAndUnknownEmailAre403WithUdacitysMessage() }
    override func testMalformedLoginBodiesAre400() async throws { try await super.testMalformedLoginBodiesAre400() }
    override func testLogoutByCookieNeedsTheXSRFHeaderAndEndsTheSession() async throws { try await super.testLogoutByCookieNeedsTheXSRFHeaderAndEndsTheSession() }
    override func testLogoutBySessionIdHeaderNeedsNoXSRF() async throws { try await super.testLogoutBySessionIdHeaderNeedsNoXSRF() }
    override func testAKeptSessionIsCheckedWithoutSideEffectsUntilItEnds() async throws { try await super.testAKeptSessionIsCheckedWithoutSideEffectsUntilItEnds() }
    override func testSessionExpiresAfterItsLifetime() async throws { try await super.testSessionExpiresAfterItsLifetime() }
    override func testRepeatedFailedLoginsForOneAccountAre429WithRetryAfter() async throws { try await super.testRepeatedFailedLoginsForOneAccountAre429WithRetryAfter() }
    override func testRepeatedFailedLoginsFromOneAddressAre429AcrossAccounts() async throws { try await super.testRepeatedFailedLoginsFromOneAddressAre429AcrossAccounts() }
    override func testUserRouteAnswersTheNamesGivenAtSignUpWithPrefix() async throws { try await super.testUserRouteAnswersTheNamesGivenAtSignUpWithPrefix() }
}

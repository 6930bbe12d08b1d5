import Foundation
import OnTheMapAPI
import StudentLocations
import XCTest

/// Logging in and out against the real server over HTTP.
final class SessionTests: XCTestCase {
    private var server: LiveServer!

    override func setUp() async throws {
        server = try await LiveServer.start()
    }

    override func tearDown() async throws {
        await server?.stop()
    }

    func testLoggingInReturnsTheAccountKeyAndTheNamesFromUsers() async throws {
        let key = try await server.addStudent(email: "ada@example.org", firstName: "Ada", lastName: "Lovelace")
        let client = makeClient(server.apiURL)

        let session = try await client.logIn(email: "ada@example.org", password: "correct horse")

        XCTAssertEqual(session.accountKey, key)
        XCTAssertEqual(session.firstName, "Ada")
        XCTAssertEqual(session.lastName, "Lovelace")
        XCTAssertFalse(session.sessionId.isEmpty)
        XCTAssertGreaterThan(session.expiration, Date(timeIntervalSince1970: 1_800_000_000))
    }

    func testEmailIsMatchedWithoutCaseOrSpaces() async throws {
        try await server.addStudent(email: "ada@example.org")
        let session = try await makeClient(server.apiURL).logIn(email: "  Ada@Example.org ", password: "correct horse")
        XCTAssertEqual(session.firstName, "Ada")
    }

    func testWrongPasswordIsInvalidCredentials() async throws {
        try await server.addStudent(email: "ada@example.org")
        do {
            _ = try await makeClient(server.apiURL).logIn(email: "ada@example.org", password: "wrong horse")
            XCTFail("logged in with a wrong password")
        } catch {
            XCTAssertEqual(error, .invalidCredentials)
            XCTAssertEqual(error.title, "Wrong email or password")
        }
    }

    func testUnknownEmailIsInvalidCredentials() async throws {
        do {
            _ = try await makeClient(server.apiURL).logIn(email: "nobody@example.org", password: "correct horse")
            XCTFail("logged in without an account")
        } catch {
            XCTAssertEqual(error, .invalidCredentials)
        }
    }

    func testTooManyFailedLoginsShowTheServersMessage() async throws {
        try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        for _ in 0..<5 { _ = try? await client.logIn(email: "ada@example.org", password: "wrong horse") }
        do {
            _ = try await client.logIn(email: "ada@example.org", password: "correct horse")
            XCTFail("the rate limit let a sixth attempt through")
        } catch {
            guard case .refused(429, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("Too many failed logins"), message)
            XCTAssertTrue(error.isRetryable)
        }
    }

    func testLoginStoresTheXSRFCookieForUdacityStyleWrites() async throws {
        try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        XCTAssertNil(client.xsrfToken)

        _ = try await client.logIn(email: "ada@example.org", password: "correct horse")

        let token = try XCTUnwrap(client.xsrfToken)
        XCTAssertFalse(token.isEmpty)
    }

    func testCookieAndXSRFTokenAloneAuthenticateAWrite() async throws {
        try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        let session = try await client.logIn(email: "ada@example.org", password: "correct horse")
        // Udacity's server ignores X-Session-Id: without it, only the cookie and X-XSRF-TOKEN authenticate.
        let cookieOnly = UserSession(accountKey: session.accountKey, sessionId: "", expiration: session.expiration,
                                     firstName: session.firstName, lastName: session.lastName)

        let objectId = try await client.post(posting(for: cookieOnly), session: cookieOnly)

        XCTAssertFalse(objectId.isEmpty)
    }

    func testLoggingOutEndsTheSession() async throws {
        try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        let session = try await client.logIn(email: "ada@example.org", password: "correct horse")

        try await client.logOut(session)

        XCTAssertNil(client.xsrfToken)
        do {
            _ = try await client.post(posting(for: session), session: session)
            XCTFail("wrote with a session that was logged out")
        } catch {
            XCTAssertEqual(error, .notLoggedIn)
        }
    }

    func testLoggingOutTwiceIsNotAnError() async throws {
        try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        let session = try await client.logIn(email: "ada@example.org", password: "correct horse")
        try await client.logOut(session)
        try await client.logOut(session)
    }

    func testSessionDescriptionLeavesOutTheSessionId() async throws {
        try await server.addStudent(email: "ada@example.org")
        let session = try await makeClient(server.apiURL).logIn(email: "ada@example.org", password: "correct horse")
        XCTAssertFalse("\(session)".contains(session.sessionId))
        XCTAssertFalse(String(reflecting: session).contains(session.sessionId))
    }

    func testLogsNeverContainThePasswordSessionIdOrXSRFToken() async throws {
        try await server.addStudent(email: "ada@example.org", password: "s3cret passphrase")
        let log = CapturedLog()
        let client = OnTheMapClient(baseURL: server.apiURL, logger: log.logger())
        _ = try? await client.logIn(email: "ada@example.org", password: "wrong passphrase")
        let session = try await client.logIn(email: "ada@example.org", password: "s3cret passphrase")
        let token = try XCTUnwrap(client.xsrfToken)
        _ = try await client.post(posting(for: session), session: session)
        try await client.logOut(session)

        let text = log.text
        XCTAssertTrue(text.contains("Logged in"), text)
        for secret in ["s3cret passphrase", "wrong passphrase", session.sessionId, token] {
            XCTAssertFalse(text.contains(secret), "the log holds a secret")
        }
    }

    // MARK: Resuming a kept session

    func testAKeptSessionResumesInANewClientWithTheNames() async throws {
        let key = try await server.addStudent(email: "ada@example.org", firstName: "Ada", lastName: "Lovelace")
        let kept = try await makeClient(server.apiURL).logIn(email: "ada@example.org", password: "correct horse")

        let later = makeClient(server.apiURL) // a new run: no cookies
        let resumed = try await later.resume(accountKey: key, sessionId: kept.sessionId, expiration: kept.expiration)

        XCTAssertEqual(resumed, kept)
        _ = try await later.post(posting(for: resumed), session: resumed) // the kept id writes
    }

    func testASessionTheServerEndedDoesNotResume() async throws {
        let key = try await server.addStudent(email: "ada@example.org")
        let client = makeClient(server.apiURL)
        let kept = try await client.logIn(email: "ada@example.org", password: "correct horse")
        try await client.logOut(kept)

        do {
            _ = try await makeClient(server.apiURL).resume(accountKey: key, sessionId: kept.sessionId, expiration: kept.expiration)
            XCTFail("an ended session resumed")
        } catch {
            XCTAssertEqual(error, .notLoggedIn)
        }
    }
}

import Foundation
import OnTheMapAPI
import OnTheMapUI
import StudentLocations
import XCTest

/// Start-up, login and logout with a kept session, on the in-memory keeper and a scripted server.
@MainActor
final class SessionResumptionTests: XCTestCase {
    private let server = URL(string: "http://127.0.0.1:8080/v1/")!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func kept(expiring expiration: Date) -> KeptSession {
        KeptSession(server: server, accountKey: "ada", sessionId: "secret-id", expiration: expiration)
    }

    private func resumption(_ keeper: InMemorySessionKeeper, answer: Result<UserSession, StudentLocationsError>)
        -> (SessionResumption, ScriptedAPI) {
        let api = ScriptedAPI(answer: answer)
        return (SessionResumption(keeper: keeper, makeClient: { _ in api }), api)
    }

    func testNothingKeptMeansTheLoginPage() async {
        let (resumption, api) = resumption(InMemorySessionKeeper(), answer: .failure(.notLoggedIn))
        guard case .nothingKept = await resumption.resume(now: now) else { return XCTFail("expected the login page") }
        XCTAssertEqual(api.resumedIds, [])
    }

    func testALiveKeptSessionResumesWithTheKeptId() async {
        let session = UserSession(accountKey: "ada", sessionId: "secret-id", expiration: now + 3600, firstName: "Ada",
                                  lastName: "Lovelace")
        let keeper = InMemorySessionKeeper(session: kept(expiring: now + 3600))
        let (resumption, api) = resumption(keeper, answer: .success(session))

        guard case .resumed(let resumed, _, let at) = await resumption.resume(now: now) else { return XCTFail("not resumed") }

        XCTAssertEqual(resumed, session)
        XCTAssertEqual(at, server)
        XCTAssertEqual(api.resumedIds, ["secret-id"])
        let stillKept = await keeper.session
        XCTAssertNotNil(stillKept)
    }

    func testASessionTheServerEndedIsForgotten() async {
        let keeper = InMemorySessionKeeper(session: kept(expiring: now + 3600))
        let (resumption, _) = resumption(keeper, answer: .failure(.notLoggedIn))
        guard case .ended = await resumption.resume(now: now) else { return XCTFail("expected ended") }
        let left = await keeper.session
        XCTAssertNil(left)
    }

    func testAnExpiredSessionIsForgottenWithoutAskingTheServer() async {
        let keeper = InMemorySessionKeeper(session: kept(expiring: now - 1))
        let (resumption, api) = resumption(keeper, answer: .failure(.notLoggedIn))
        guard case .ended = await resumption.resume(now: now) else { return XCTFail("expected ended") }
        XCTAssertEqual(api.resumedIds, [])
        let left = await keeper.session
        XCTAssertNil(left)
    }

    func testAnUnreachableServerKeepsTheSessionForNextTime() async {
        let keeper = InMemorySessionKeeper(session: kept(expiring: now + 3600))
        let (resumption, _) = resumption(keeper, answer: .failure(.unreachable(detail: "offline")))
        guard case .failed(.unreachable) = await resumption.resume(now: now) else { return XCTFail("expected failed") }
        let left = await keeper.session
        XCTAssertEqual(left, kept(expiring: now + 3600))
    }

    func testLoggingInWithTheBoxTickedKeepsTheSessionButNoPassword() async throws {
        let keeper = InMemorySessionKeeper()
        let (resumption, _) = resumption(keeper, answer: .failure(.notLoggedIn))
        let session = UserSession(accountKey: "ada", sessionId: "new-id", expiration: now + 60, firstName: "Ada",
                                  lastName: "Lovelace")

        try await resumption.loggedIn(session, server: server, stay: true)

        let stored = await keeper.session
        XCTAssertEqual(stored, KeptSession(server: server, accountKey: "ada", sessionId: "new-id", expiration: now + 60))
    }

    func testLoggingInUntickedOrLoggingOutForgetsTheKeptSession() async throws {
        let keeper = InMemorySessionKeeper(session: kept(expiring: now + 3600))
        let (resumption, _) = resumption(keeper, answer: .failure(.notLoggedIn))
        let session = UserSession(accountKey: "ada", sessionId: "new-id", expiration: now + 60, firstName: "", lastName: "")

        try await resumption.loggedIn(session, server: server, stay: false)
        let afterLogin = await keeper.session
        XCTAssertNil(afterLogin)

        try await resumption.loggedIn(session, server: server, stay: true)
        await resumption.loggedOut()
        let afterLogOut = await keeper.session
        XCTAssertNil(afterLogOut)
    }

    func testNoKeyringKeepsNothing() async {
        let keeper = InMemorySessionKeeper(available: false)
        let answers = await keeper.isAvailable()
        XCTAssertFalse(answers)
        let (resumption, _) = resumption(keeper, answer: .failure(.notLoggedIn))
        let session = UserSession(accountKey: "ada", sessionId: "new-id", expiration: now + 60, firstName: "", lastName: "")
        do {
            try await resumption.loggedIn(session, server: server, stay: true)
            XCTFail("kept without a keyring")
        } catch {}
    }
}

/// Answers `resume` as scripted and records the ids it was asked with; nothing else is called here.
private final class ScriptedAPI: StudentLocationsAPI, @unchecked Sendable {
    private let answer: Result<UserSession, StudentLocationsError>
    private(set) var resumedIds: [String] = []

    init(answer: Result<UserSession, StudentLocationsError>) { self.answer = answer }

    func resume(accountKey: String, sessionId: String, expiration: Date) async throws(StudentLocationsError) -> UserSession {
        resumedIds.append(sessionId)
        return try answer.get()
    }

    func logIn(email: String, password: String) async throws(StudentLocationsError) -> UserSession { throw .cancelled }
    func logOut(_ session: UserSession) async throws(StudentLocationsError) {}
    func recentLocations(limit: Int) async throws(StudentLocationsError) -> RecentLocations { throw .cancelled }
    func location(of accountKey: String) async throws(StudentLocationsError) -> StudentInformation? { nil }
    func post(_ posting: StudentLocationPosting, session: UserSession) async throws(StudentLocationsError) -> String { "" }
    func update(objectId: String, _ posting: StudentLocationPosting, session: UserSession) async throws(StudentLocationsError) {}
}

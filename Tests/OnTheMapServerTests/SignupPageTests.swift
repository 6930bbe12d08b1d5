import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// `GET /signup`: the plain HTML form a new student uses to join a class server.
class SignupPageTests: ServerTestCase {
    /// The form's hidden token and the cookie that must come back with it.
    private func openForm() async throws -> (token: String, cookie: String) {
        let page = try await client.send("GET", "/signup")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.header("Content-Type")?.hasPrefix("text/html") ?? false)
        XCTAssertTrue(page.text.contains(#"<form method="post" action="/signup">"#))
        XCTAssertFalse(page.text.contains("<script"), "no JavaScript needed")
        let match = try XCTUnwrap(page.text.range(of: #"name="token" value="[^"]+""#, options: .regularExpression))
        let token = page.text[match].split(separator: "\"")[3]
        let cookie = try XCTUnwrap(page.cookies["signup_form"])
        return (String(token), "signup_form=\(cookie)")
    }

    private func submit(_ fields: [String: String], cookie: String?) async throws -> TestResponse {
        try await Self.submit(fields, cookie: cookie, with: client)
    }

    private static func submit(_ fields: [String: String], cookie: String?, with client: APIClient) async throws -> TestResponse {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&")
        return try await client.send("POST", "/signup", body: Data(body.utf8),
                                     contentType: "application/x-www-form-urlencoded",
                                     headers: cookie.map { ["Cookie": $0] } ?? [:])
    }

    func testSignupFormCreatesAnAccountThatCanLogIn() async throws {
        let form = try await openForm()
        let created = try await submit(["email": "Grace@Example.org", "password": "a long passphrase",
                                        "firstName": "Grace", "lastName": "Hopper", "nickname": "",
                                        "token": form.token], cookie: form.cookie)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertTrue(created.text.contains("grace@example.org"))

        let session = try await client.session("grace@example.org", "a long passphrase")
        let user = try await client.send("GET", "/v1/users/\(session.key)")
        XCTAssertEqual(try user.decode(PublicUserData.self),
                       PublicUserData(firstName: "Grace", lastName: "Hopper", nickname: "Grace"))
    }

    func testSignupWithoutTheFormsCookieIsRefused() async throws {
        let form = try await openForm()
        let fields = ["email": "mallory@example.org", "password": "a long passphrase", "firstName": "M",
                      "lastName": "M", "token": form.token]
        let crossSite = try await submit(fields, cookie: nil)
        XCTAssertEqual(crossSite.status, 403)
        let wrongCookie = try await submit(fields, cookie: "signup_form=forged")
        XCTAssertEqual(wrongCookie.status, 403)
        try assertError(try await client.login("mallory@example.org", "a long passphrase"), 403, prefixed: true)
    }

    func testSignupErrorsAreShownOnTheFormWithTheValuesKept() async throws {
        let form = try await openForm()
        let short = try await submit(["email": "ada@example.org", "password": "short", "firstName": "Ada",
                                      "lastName": "<b>Lovelace</b>", "token": form.token], cookie: form.cookie)
        XCTAssertEqual(short.status, 400)
        XCTAssertTrue(short.text.contains("at least 8 characters"), short.text)
        XCTAssertTrue(short.text.contains("&lt;b&gt;Lovelace&lt;/b&gt;"), "values come back escaped")

        try await server.addAccount(email: "taken@example.org")
        let taken = try await submit(["email": "taken@example.org", "password": "a long passphrase",
                                      "firstName": "T", "lastName": "T", "token": form.token], cookie: form.cookie)
        XCTAssertEqual(taken.status, 400)
        XCTAssertTrue(taken.text.contains("already exists"), taken.text)
        let invalid = try await submit(["email": "not-an-email", "password": "a long passphrase",
                                        "firstName": "T", "lastName": "T", "token": form.token], cookie: form.cookie)
        XCTAssertTrue(invalid.text.contains("not an email address"), invalid.text)
    }

    func testSignUpsSentAtOnceFromOneAddressStopAtTheLimit() async throws {
        let form = try await openForm()
        let client = self.client!
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<45 {
                let fields = ["email": "student\(index)@example.org", "password": "a long passphrase",
                              "firstName": "Student", "lastName": "Number", "token": form.token]
                group.addTask { try await Self.submit(fields, cookie: form.cookie, with: client).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.filter { $0 == 201 }.count, 30, "\(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 429 }.count, 15, "\(statuses)")
    }

    func testRefusedSignUpsCountTooSoTakenEmailsCannotBeListedWithoutLimit() async throws {
        try await server.addAccount(email: "taken@example.org")
        let form = try await openForm()
        var answers: [Int] = []
        for _ in 0..<31 {
            let taken = try await submit(["email": "taken@example.org", "password": "a long passphrase",
                                          "firstName": "T", "lastName": "T", "token": form.token], cookie: form.cookie)
            answers.append(taken.status)
        }
        XCTAssertEqual(answers.filter { $0 == 400 }.count, 30, "\(answers)")
        XCTAssertEqual(answers.last, 429, "\(answers)")
    }

    func testCommonPasswordsAndOnesMadeOfTheEmailAreRefused() async throws {
        let form = try await openForm()
        for password in ["password", "12345678", "qwertyuiop", "grace.hopper@example.org", "GraceHopper1!"] {
            let refused = try await submit(["email": "grace.hopper@example.org", "password": password,
                                            "firstName": "Grace", "lastName": "Hopper", "token": form.token],
                                           cookie: form.cookie)
            XCTAssertEqual(refused.status, 400, "\(password): \(refused.text)")
            XCTAssertTrue(refused.text.contains("password"), refused.text)
        }
        try assertError(try await client.login("grace.hopper@example.org", "password"), 403, prefixed: true)
    }

    func testSignupCanBeTurnedOff() async throws {
        try await restart { $0.signupEnabled = false }
        let page = try await client.send("GET", "/signup")
        XCTAssertEqual(page.status, 404)
        XCTAssertTrue(page.text.contains("does not take new sign-ups"))
    }
}

final class SignupPagePostgresTests: SignupPageTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testSignupFormCreatesAnAccountThatCanLogIn() async throws { try await super.testSignupFormCreatesAnAccountThatCanLogIn() }
    override func testSignupWithoutTheFormsCookieIsRefused() async throws { try await super.testSignupWithoutTheFormsCookieIsRefused() }
    override func testSignupErrorsAreShownOnTheFormWithTheValuesKept() async throws { try await super.testSignupErrorsAreShownOnTheFormWithTheValuesKept() }
    override func testSignupCanBeTurnedOff() async throws { try await super.testSignupCanBeTurnedOff() }
    override func testSignUpsSentAtOnceFromOneAddressStopAtTheLimit() async throws { try await super.testSignUpsSentAtOnceFromOneAddressStopAtTheLimit() }
    override func testRefusedSignUpsCountTooSoTakenEmailsCannotBeListedWithoutLimit() async throws { try await super.testRefusedSignUpsCountTooSoTakenEmailsCannotBeListedWithoutLimit() }
    override func testCommonPasswordsAndOnesMadeOfTheEmailAreRefused() async throws { try await super.testCommonPasswordsAndOnesMadeOfTheEmailAreRefused() }
}

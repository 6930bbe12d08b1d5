import Foundation
import HTTPTypes
import Hummingbird

/// `GET /signup`: a plain HTML form (no JavaScript) that creates an account; the client's "Sign Up" link opens it.
/// The form carries a token that must match a cookie set with the page, so other sites cannot post it.
struct SignupPage: Sendable {
    let accounts: AccountRegistry
    let enabled: Bool
    let limiter: any AttemptLedger
    let turns: PasswordTurns
    let clientAddress: @Sendable (Request, OnTheMapRequestContext) -> String
    let maximumBodySize: Int
    let secureCookies: Bool
    let metrics: ServerMetrics
    /// Accounts one address may create per hour: enough for a classroom behind one router.
    static let signupsPerAddress = 30
    static let signupWindow: TimeInterval = 3600
    static let tokenCookie = "signup_form"

    struct Form: Decodable {
        var email: String?
        var password: String?
        var firstName: String?
        var lastName: String?
        var nickname: String?
        var token: String?
    }

    func add(to router: Router<OnTheMapRequestContext>) {
        router.get("signup") { _, _ in try page() }
        router.post("signup") { request, context in try await submit(request, context) }
    }

    private func page() throws -> Response {
        guard enabled else { return closed() }
        let token = RandomToken.secret()
        return html(.ok, form(Form(), token: token, error: nil), cookie: token)
    }

    private func submit(_ request: Request, _ context: OnTheMapRequestContext) async throws -> Response {
        guard enabled else { return closed() }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            return html(.badRequest, form(Form(), token: RandomToken.secret(), error: "Send the form from this page."),
                        cookie: nil)
        }
        let buffer = try await request.body.collect(upTo: maximumBodySize)
        let form = (try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: buffer))) ?? Form()
        let newToken = RandomToken.secret()
        guard let token = form.token, let cookie = request.cookies[Self.tokenCookie]?.value,
              RandomToken.constantTimeEqual(token, cookie) else {
            return html(.forbidden, self.form(form, token: newToken, error: "The form expired; please send it again."),
                        cookie: newToken)
        }
        let client = clientAddress(request, context)
        let now = accounts.now()
        do {
            let account = try await turns.withTurn(for: client) { () async throws -> Account in
                // Every sign-up counts, made or refused, before any work: the limit bounds bcrypt's work and how many
                // emails one address can learn are taken.
                if let wait = try await limiter.admit([AttemptLimit("signup-address:" + client,
                                                                    limit: Self.signupsPerAddress)],
                                                      window: Self.signupWindow, now: now) {
                    throw APIError(status: .tooManyRequests, message: "Too many sign-ups came from your address; "
                                   + "try again in \(Int(wait) / 60 + 1) minutes.")
                }
                return try await accounts.create(NewAccount(
                    email: form.email ?? "", password: form.password ?? "", firstName: form.firstName ?? "",
                    lastName: form.lastName ?? "", nickname: form.nickname))
            }
            metrics.signupsCreated.increment()
            context.logger.info("Account created on the sign-up page", metadata: ["account": "\(account.key)"])
            return html(.created, welcome(account), cookie: nil)
        } catch let error as AccountError {
            metrics.signupsRefused.increment()
            return html(.badRequest, self.form(form, token: newToken, error: error.description), cookie: newToken)
        } catch let error as APIError {
            if error.status == .tooManyRequests { metrics.signupsLimited.increment() }
            return html(error.status, self.form(form, token: newToken, error: error.message), cookie: newToken)
        }
    }

    // MARK: HTML

    private func closed() -> Response {
        html(.notFound, page(title: "Sign-up is closed",
                             body: "<p>This server does not take new sign-ups. Ask whoever runs it for an account.</p>"),
             cookie: nil)
    }

    private func welcome(_ account: Account) -> String {
        page(title: "Welcome, \(escape(account.firstName))",
             body: "<p>Your account is ready. Log in to On the Map with <strong>\(escape(account.email))</strong> "
                 + "and your password.</p>")
    }

    private func form(_ form: Form, token: String, error: String?) -> String {
        func field(_ name: String, _ label: String, _ type: String, _ value: String?, required: Bool = true) -> String {
            let valueAttribute = type == "password" ? "" : " value=\"\(escape(value ?? ""))\""
            return "<p><label for=\"\(name)\">\(label)</label><br><input id=\"\(name)\" name=\"\(name)\" "
                + "type=\"\(type)\"\(valueAttribute)\(required ? " required" : "")></p>"
        }
        let message = error.map { "<p role=\"alert\" class=\"error\">\(escape($0))</p>" } ?? ""
        return page(title: "Join On the Map", body: """
            \(message)<form method="post" action="/signup">
            \(field("email", "Email", "email", form.email))
            \(field("password", "Password (at least \(AccountRegistry.minimumPasswordLength) characters)", "password", nil))
            \(field("firstName", "First name", "text", form.firstName))
            \(field("lastName", "Last name", "text", form.lastName))
            \(field("nickname", "Nickname (optional)", "text", form.nickname, required: false))
            <input type="hidden" name="token" value="\(escape(token))">
            <p><button type="submit">Create account</button></p>
            </form>
            """)
    }

    private func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <title>\(title)</title>
        <style>body{font-family:sans-serif;max-width:30em;margin:2em auto;padding:0 1em}.error{color:#a00}</style>
        </head><body><h1>\(title)</h1>
        \(body)
        </body></html>
        """
    }

    private func html(_ status: HTTPResponse.Status, _ text: String, cookie token: String?) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
        ]
        if let token {
            let secure = secureCookies ? "; Secure" : ""
            headers.append(HTTPField(name: .setCookie,
                                     value: "\(Self.tokenCookie)=\(token); Path=/signup; HttpOnly; SameSite=Strict\(secure)"))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}

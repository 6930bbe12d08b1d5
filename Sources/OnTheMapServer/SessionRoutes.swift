import Foundation
import Hummingbird
import OnTheMapAPI

/// `POST /v1/session`'s body: exactly one credential, and only `udacity` (email and password) is supported.
struct LoginBody: Decodable {
    var credentials: SessionRequest.Credentials

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw APIError.badRequest("Send exactly one credential: {\"udacity\": {\"username\": …, \"password\": …}}.")
        }
        guard key.stringValue == "udacity" else {
            throw APIError.badRequest("Only email and password login ({\"udacity\": …}) is supported here, "
                                      + "not \(key.stringValue).")
        }
        credentials = try container.decode(SessionRequest.Credentials.self, forKey: key)
    }
}

/// `/v1/session` and `/v1/users/{key}`: log in, check a kept session, log out, public names. Every answer is prefixed.
struct SessionRoutes: Sendable {
    let accounts: AccountRegistry
    let sessions: SessionAuthority
    let loginLimiter: any AttemptLedger
    let turns: PasswordTurns
    let limits: LoginLimits
    let maximumBodySize: Int
    let clientAddress: @Sendable (Request, OnTheMapRequestContext) -> String
    let metrics: ServerMetrics

    func add(to router: Router<OnTheMapRequestContext>) {
        let prefixed = router.group().add(middleware: ErrorBodyMiddleware(prefixed: true))
        prefixed.post("v1/session") { request, context in
            do {
                return try await login(request, context)
            } catch let error as APIError where error.status == .tooManyRequests {
                metrics.loginsLimited.increment()
                throw error
            }
        }
        prefixed.delete("v1/session") { request, _ in try await logout(request) }
        prefixed.get("v1/session") { request, _ in try await current(request) }
        prefixed.get("v1/users/:key") { _, context in try await user(context.parameters.require("key")) }
    }

    private func login(_ request: Request, _ context: OnTheMapRequestContext) async throws -> Response {
        let credentials = try await request.decodeJSON(LoginBody.self, limit: maximumBodySize).credentials
        for (field, text) in [("username", credentials.username), ("password", credentials.password)]
            where text.unicodeScalars.contains("\0") {
            throw APIError.badRequest(InputText.containsNUL.message("The \(field)"))
        }
        let client = clientAddress(request, context)
        let accountKey = "login-account:" + AccountRegistry.normalizedEmail(credentials.username)
        let addressKey = "login-address:" + client
        let now = sessions.now()
        let account = try await turns.withTurn(for: client) { () async throws -> Account? in
            // Counted at the turn, before bcrypt: guesses sent at once are each counted; a success takes its count back.
            if let wait = try await loginLimiter.admit([AttemptLimit(accountKey, limit: limits.failuresPerAccount),
                                                        AttemptLimit(addressKey, limit: limits.failuresPerAddress)],
                                                       window: limits.window, now: now) {
                throw APIError.tooManyAttempts(retryAfter: wait, "Too many failed logins.")
            }
            return try await accounts.verify(email: credentials.username, password: credentials.password)
        }
        guard let account else {
            metrics.loginsFailed.increment()
            context.logger.notice("Failed login", metadata: ["client": "\(client)"])
            throw APIError.invalidCredentials
        }
        try await loginLimiter.forget(accountKey)
        try await loginLimiter.withdraw([addressKey], at: now)
        let (id, session) = try await sessions.start(for: account)
        let body = SessionResponse(account: .init(registered: true, key: account.key),
                                   session: SessionInfo(id: id, expiration: session.expiresAt))
        return try APIResponse.json(body, prefixed: true, headers: sessions.cookies(for: id, session))
    }

    private func logout(_ request: Request) async throws -> Response {
        let session = try await sessions.authenticate(request, xsrf: .required)
        try await sessions.end(session)
        let body = SessionEnded(session: SessionInfo(id: session.id, expiration: session.stored.expiresAt))
        return try APIResponse.json(body, prefixed: true, headers: sessions.clearingCookies())
    }

    /// The request's session if it is still live (401 if not): how a client that kept a session checks it
    /// before resuming, since no read of locations or names looks at the session.
    private func current(_ request: Request) async throws -> Response {
        let session = try await sessions.authenticate(request, xsrf: .checkedIfSent)
        let body = SessionResponse(account: .init(registered: true, key: session.stored.accountKey),
                                   session: SessionInfo(id: session.id, expiration: session.stored.expiresAt))
        return try APIResponse.json(body, prefixed: true)
    }

    private func user(_ key: String) async throws -> Response {
        if InputText.problem(key, maximum: LocationValidation.maximumKeyLength) != nil {
            throw APIError(status: .notFound, message: "No account has that key.")
        }
        guard let account = try await accounts.store.account(key: key) else {
            throw APIError(status: .notFound, message: "No account has the key \(key).")
        }
        let body = PublicUserData(firstName: account.firstName, lastName: account.lastName, nickname: account.nickname)
        return try APIResponse.json(body, prefixed: true)
    }
}

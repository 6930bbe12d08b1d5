import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapAPI

/// A request's session, once its id (and, for cookies, its XSRF token) has been checked.
struct AuthenticatedSession: Sendable {
    var id: String
    var stored: StoredSession
}

/// Starts, checks and ends sessions. Only a hash of each session id reaches the store.
struct SessionAuthority: Sendable {
    let store: any StudentStore
    let lifetime: TimeInterval
    let secureCookies: Bool
    let now: @Sendable () -> Date

    func start(for account: Account) async throws -> (id: String, stored: StoredSession) {
        let id = RandomToken.secret()
        let created = now()
        let session = StoredSession(idHash: RandomToken.hash(id), accountKey: account.key,
                                    xsrfToken: RandomToken.secret(), createdAt: created,
                                    expiresAt: created.addingTimeInterval(lifetime))
        try await store.deleteSessions(expiredBefore: created) // housekeeping, cheap with the expiry index
        try await store.createSession(session)
        return (id, session)
    }

    /// How a request authenticated by the session cookie (which a browser would also send on a forged
    /// cross-site request) must show it comes from the page that logged in.
    enum XSRFCheck {
        /// `X-XSRF-TOKEN` must equal the `XSRF-TOKEN` cookie (logout, as Udacity's API documents).
        case required
        /// The header is checked if sent. For location writes, which Udacity-style clients send with the
        /// cookie alone: they must be JSON, which a cross-site form cannot send without a CORS preflight this
        /// server never grants, and the cookie is `SameSite=Lax`, so browsers leave it off cross-site posts.
        case checkedIfSent
    }

    /// The request's live session. `X-Session-Id` needs nothing more; the session cookie needs `xsrf`.
    func authenticate(_ request: Request, xsrf: XSRFCheck) async throws -> AuthenticatedSession {
        let headerName = HTTPField.Name(OnTheMapHTTP.sessionIdHeader)!
        let fromHeader = request.headers[headerName]
        let fromCookie = fromHeader == nil ? request.cookies[OnTheMapHTTP.sessionCookie]?.value : nil
        guard let id = fromHeader ?? fromCookie, !id.isEmpty else { throw APIError.noSession }
        guard let stored = try await store.session(idHash: RandomToken.hash(id)) else { throw APIError.expiredSession }
        guard stored.expiresAt > now() else {
            try await store.deleteSession(idHash: stored.idHash)
            throw APIError.expiredSession
        }
        let sentXSRF = request.headers[HTTPField.Name(OnTheMapHTTP.xsrfHeader)!]
        if fromCookie != nil && (xsrf == .required || sentXSRF != nil) {
            guard RandomToken.constantTimeEqual(sentXSRF ?? "", stored.xsrfToken) else {
                throw APIError(status: .forbidden, message: "Requests authenticated by the session cookie must "
                               + "send the XSRF-TOKEN cookie's value in the X-XSRF-TOKEN header.")
            }
        }
        return AuthenticatedSession(id: id, stored: stored)
    }

    func end(_ session: AuthenticatedSession) async throws {
        try await store.deleteSession(idHash: session.stored.idHash)
    }

    /// `Set-Cookie` for a new session: the id HttpOnly (scripts never see it), the XSRF token readable.
    func cookies(for id: String, _ session: StoredSession) -> HTTPFields {
        let maxAge = Int(session.expiresAt.timeIntervalSince(now()))
        return setCookies([(OnTheMapHTTP.sessionCookie, id, true), (OnTheMapHTTP.xsrfCookie, session.xsrfToken, false)],
                          maxAge: maxAge)
    }

    /// `Set-Cookie` that makes the browser forget both cookies.
    func clearingCookies() -> HTTPFields {
        setCookies([(OnTheMapHTTP.sessionCookie, "", true), (OnTheMapHTTP.xsrfCookie, "", false)], maxAge: 0)
    }

    private func setCookies(_ cookies: [(name: String, value: String, httpOnly: Bool)], maxAge: Int) -> HTTPFields {
        var fields = HTTPFields()
        for cookie in cookies {
            var attributes = ["\(cookie.name)=\(cookie.value)", "Path=/", "Max-Age=\(maxAge)", "SameSite=Lax"]
            if cookie.httpOnly { attributes.append("HttpOnly") }
            if secureCookies { attributes.append("Secure") }
            fields.append(HTTPField(name: .setCookie, value: attributes.joined(separator: "; ")))
        }
        return fields
    }
}

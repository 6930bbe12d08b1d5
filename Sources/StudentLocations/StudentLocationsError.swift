import Foundation
import OnTheMapAPI
import Translations
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What went wrong talking to the On the Map server, told apart so the UI can say what to do.
/// No case carries a password, session id or XSRF token, so titles and descriptions are safe to show and log.
public enum StudentLocationsError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Offline, unknown host, connection refused or dropped, no answer in time. `detail` names the host
    /// and the reason: "127.0.0.1:8080 (the connection was refused)".
    case unreachable(detail: String)
    /// `POST /session` answered 403.
    case invalidCredentials
    /// A 5xx answer, or one that isn't the API's JSON. `detail`: "HTTP 502", "its answer wasn't valid JSON".
    case serverFailed(detail: String)
    /// A 4xx answer with the server's own `{status, error}` text (bad data, not your location, too many logins).
    case refused(status: Int, message: String)
    /// The session ended or expired (401): log in again.
    case notLoggedIn
    /// The task waiting for the answer was cancelled; nothing to show.
    case cancelled

    /// A short alert heading.
    public var title: String {
        switch self {
        case .unreachable: tr("Can't reach the server")
        case .invalidCredentials: tr("Wrong email or password")
        case .serverFailed: tr("The server failed")
        case .refused: tr("The server refused the request")
        case .notLoggedIn: tr("You're not logged in")
        case .cancelled: tr("Cancelled")
        }
    }

    /// The sentence under the heading: what happened and what to do.
    public var description: String {
        switch self {
        case .unreachable(let detail):
            // Translators: %@ is the server and why it can't be reached, e.g. "example.org (no such host name)".
            formatted(tr("Can't reach the server at %@. Check your connection and try again."), detail)
        case .invalidCredentials:
            tr("Wrong email or password. Check both and try again.")
        case .serverFailed(let detail):
            // Translators: %@ says how it failed, e.g. "HTTP 502" or "its answer wasn't HTTP".
            formatted(tr("The server failed (%@). Try again later."), detail)
        case .refused(let status, let message):
            // Translators: %d is an HTTP status code, e.g. 418.
            message.isEmpty ? formatted(tr("The server refused the request (HTTP %d)."), status) : message
        case .notLoggedIn:
            tr("Your session has ended. Log in again.")
        case .cancelled:
            tr("The request was cancelled.")
        }
    }

    /// Worth offering "Try Again" for: the same request may well work later.
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .serverFailed: true
        case .refused(let status, _): status == 429
        default: false
        }
    }
}

extension StudentLocationsError {
    /// Maps what URLSession threw; `server` is "host:port" for the message.
    static func transport(_ error: any Error, server: String) -> StudentLocationsError {
        if let error = error as? StudentLocationsError { return error }
        if error is CancellationError { return .cancelled }
        // Each detail is one message, the server's "host:port" and why it can't be reached, so a translation
        // never joins a name to a separately translated reason.
        let detail: String
        switch (error as? URLError)?.code {
        case .cancelled?: return .cancelled
        case .notConnectedToInternet?, .dataNotAllowed?, .internationalRoamingOff?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (this computer is offline)")
        case .cannotFindHost?, .dnsLookupFailed?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (no such host name)")
        case .cannotConnectToHost?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (the connection was refused)")
        case .timedOut?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (no answer in time)")
        case .networkConnectionLost?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (the connection dropped)")
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (a secure connection couldn't be set up; check the address and this computer's clock)")
        case .badServerResponse?, .cannotParseResponse?:
            return .serverFailed(detail: notHTTP)
        default:
            // Translators: %@ is a server's host and port, e.g. "example.org:443".
            detail = tr("%@ (the connection failed)")
        }
        return .unreachable(detail: formatted(detail, server))
    }

    /// How the server failed when it answered with something that isn't HTTP.
    static var notHTTP: String {
        // Translators: how the server failed, shown as "The server failed (its answer wasn't HTTP)."
        tr("its answer wasn't HTTP")
    }

    /// Maps a non-2xx answer. `isLogin`: a 403 there means wrong credentials, elsewhere a refusal.
    static func http(status: Int, body: Data, isLogin: Bool) -> StudentLocationsError {
        if isLogin && status == 403 { return .invalidCredentials }
        if status == 401 { return .notLoggedIn }
        if status >= 500 || status < 400 {
            return .serverFailed(detail: "HTTP \(status)")
        }
        let json = OnTheMapHTTP.strippingPrefix(body)
        let message = (try? JSONDecoder().decode(ErrorBody.self, from: json))?.error
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        // An alert is no place for a page of text from a server we may not run.
        return .refused(status: status, message: String(message.prefix(300)))
    }
}

import Foundation
import OnTheMapAPI
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
        case .unreachable: "Can't reach the server"
        case .invalidCredentials: "Wrong email or password"
        case .serverFailed: "The server failed"
        case .refused: "The server refused the request"
        case .notLoggedIn: "You're not logged in"
        case .cancelled: "Cancelled"
        }
    }

    /// The sentence under the heading: what happened and what to do.
    public var description: String {
        switch self {
        case .unreachable(let detail):
            "Can't reach the server at \(detail). Check your connection and try again."
        case .invalidCredentials:
            "Wrong email or password. Check both and try again."
        case .serverFailed(let detail):
            "The server failed (\(detail)). Try again later."
        case .refused(let status, let message):
            message.isEmpty ? "The server refused the request (HTTP \(status))." : message
        case .notLoggedIn:
            "Your session has ended. Log in again."
        case .cancelled:
            "The request was cancelled."
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
        guard let urlError = error as? URLError else {
            return .unreachable(detail: "\(server) (the connection failed)")
        }
        let reason: String
        switch urlError.code {
        case .cancelled: return .cancelled
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            reason = "this computer is offline"
        case .cannotFindHost, .dnsLookupFailed:
            reason = "no such host name"
        case .cannotConnectToHost:
            reason = "the connection was refused"
        case .timedOut:
            reason = "no answer in time"
        case .networkConnectionLost:
            reason = "the connection dropped"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            reason = "a secure connection couldn't be set up; check the address and this computer's clock"
        case .badServerResponse, .cannotParseResponse:
            return .serverFailed(detail: "its answer wasn't HTTP")
        default:
            reason = "the connection failed"
        }
        return .unreachable(detail: "\(server) (\(reason))")
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

import Foundation

/// `POST /v1/session`: `{"udacity": {"username": EMAIL, "password": PASSWORD}}`.
public struct SessionRequest: Codable, Hashable, Sendable {
    public struct Credentials: Codable, Hashable, Sendable {
        public var username: String
        public var password: String
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public var udacity: Credentials
    public init(udacity: Credentials) { self.udacity = udacity }
}

/// `POST /v1/session` → the account and the new session.
public struct SessionResponse: Codable, Hashable, Sendable {
    public struct Account: Codable, Hashable, Sendable {
        public var registered: Bool
        public var key: String
        public init(registered: Bool, key: String) {
            self.registered = registered
            self.key = key
        }
    }

    public var account: Account
    public var session: SessionInfo
    public init(account: Account, session: SessionInfo) {
        self.account = account
        self.session = session
    }
}

/// A session's id and when it expires; `DELETE /v1/session` answers `{"session": …}` alone.
public struct SessionInfo: Codable, Hashable, Sendable {
    public var id: String
    public var expiration: Date
    public init(id: String, expiration: Date) {
        self.id = id
        self.expiration = expiration
    }
}

/// `DELETE /v1/session` → `{"session": {"id": …, "expiration": …}}`.
public struct SessionEnded: Codable, Hashable, Sendable {
    public var session: SessionInfo
    public init(session: SessionInfo) { self.session = session }
}

/// `GET /v1/users/{key}` → the names given at sign-up.
public struct PublicUserData: Codable, Hashable, Sendable {
    public var firstName: String
    public var lastName: String
    public var nickname: String

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case nickname
    }

    public init(firstName: String, lastName: String, nickname: String) {
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
    }
}

/// Every error: `{"status": 403, "error": "Account not found or invalid credentials."}`.
public struct ErrorBody: Codable, Hashable, Sendable, Error {
    public var status: Int
    public var error: String
    public init(status: Int, error: String) {
        self.status = status
        self.error = error
    }
}

/// Header and cookie names the server and its clients agree on.
public enum OnTheMapHTTP {
    /// The 5 bytes `)]}'` + newline that start every `/v1/session` and `/v1/users/…` response (anti-JSON-hijacking).
    public static let antiHijackingPrefix = ")]}'\n"
    /// Authenticates a request without cookies (and so needs no XSRF token).
    public static let sessionIdHeader = "X-Session-Id"
    /// Must equal the `XSRF-TOKEN` cookie on writes authenticated by the session cookie.
    public static let xsrfHeader = "X-XSRF-TOKEN"
    public static let xsrfCookie = "XSRF-TOKEN"
    public static let sessionCookie = "on_the_map_session"

    /// The JSON of a prefixed response, without its prefix (clients skip the first 5 bytes).
    public static func strippingPrefix(_ data: Data) -> Data {
        let prefix = Data(antiHijackingPrefix.utf8)
        return data.starts(with: prefix) ? data.dropFirst(prefix.count) : data
    }
}

import Foundation
import OnTheMapAPI

/// A logged-in student: their account key and names (from `/users/{key}`) and the session to write with.
public struct UserSession: Sendable, Equatable, CustomStringConvertible {
    public let accountKey: String
    /// Secret: authenticates writes. Never logged, and left out of `description`.
    public let sessionId: String
    public let expiration: Date
    public let firstName: String
    public let lastName: String

    public init(accountKey: String, sessionId: String, expiration: Date, firstName: String, lastName: String) {
        self.accountKey = accountKey
        self.sessionId = sessionId
        self.expiration = expiration
        self.firstName = firstName
        self.lastName = lastName
    }

    public var description: String {
        "UserSession(accountKey: \(accountKey), \(firstName) \(lastName), expires \(expiration))"
    }

    /// A posting of this student at a place, with their link; the names come from their account.
    public func posting(mapString: String, mediaURL: String, latitude: Double, longitude: Double)
        -> StudentLocationPosting {
        StudentLocationPosting(uniqueKey: accountKey, firstName: firstName, lastName: lastName, mapString: mapString,
                               mediaURL: mediaURL, latitude: latitude, longitude: longitude)
    }
}

/// The On the Map API as the app uses it. `OnTheMapClient` talks to a real server (Udacity's or a
/// self-hosted one); every method throws only `StudentLocationsError`.
public protocol StudentLocationsAPI: Sendable {
    /// `POST session`, then `GET users/{key}` for the student's names.
    func logIn(email: String, password: String) async throws(StudentLocationsError) -> UserSession
    /// Takes up a session kept from an earlier run: `GET session` checks it is still live (`.notLoggedIn` if the
    /// server ended it), then `GET users/{key}` for the names.
    func resume(accountKey: String, sessionId: String, expiration: Date) async throws(StudentLocationsError) -> UserSession
    /// `DELETE session`, authenticated by the XSRF cookie (Udacity) and `X-Session-Id` (self-hosted).
    func logOut(_ session: UserSession) async throws(StudentLocationsError)
    /// The `limit` most recently updated locations, newest first, and whether the server sent more than asked.
    func recentLocations(limit: Int) async throws(StudentLocationsError) -> RecentLocations
    /// The newest location posted under `accountKey`, if any.
    func location(of accountKey: String) async throws(StudentLocationsError) -> StudentInformation?
    /// Creates a location; returns its objectId.
    func post(_ posting: StudentLocationPosting, session: UserSession) async throws(StudentLocationsError) -> String
    /// Replaces the location `objectId` with `posting`.
    func update(objectId: String, _ posting: StudentLocationPosting, session: UserSession)
        async throws(StudentLocationsError)
}

extension StudentLocationsAPI {
    /// Updates the student's newest location if they have one, else posts a new one; returns its objectId.
    /// So each student keeps one pin however often they post.
    public func postOrUpdate(_ posting: StudentLocationPosting, session: UserSession)
        async throws(StudentLocationsError) -> String {
        if let existing = try await location(of: session.accountKey) {
            try await update(objectId: existing.objectId, posting, session: session)
            return existing.objectId
        }
        return try await post(posting, session: session)
    }
}

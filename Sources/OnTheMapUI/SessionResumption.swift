import Foundation
import StudentLocations

/// What start-up, login and logout do with the kept session; no GTK, so it is tested on its own. On the main
/// actor with the window; the keyring and the server are awaited off it.
@MainActor
public struct SessionResumption {
    public enum Outcome {
        /// Nothing kept: the login page.
        case nothingKept
        /// The kept session is live again, through this client.
        case resumed(UserSession, api: any StudentLocationsAPI, server: URL)
        /// The server ended it or it expired: forgotten; the login page says why.
        case ended
        /// The server could not be asked (offline, failing): kept for next time; the login page shows the error.
        case failed(StudentLocationsError)
    }

    let keeper: any SessionKeeper
    let makeClient: (URL) -> any StudentLocationsAPI

    public init(keeper: any SessionKeeper, makeClient: @escaping (URL) -> any StudentLocationsAPI) {
        self.keeper = keeper
        self.makeClient = makeClient
    }

    /// Reads the keyring and asks the server whether the kept session still counts.
    public func resume(now: Date = Date()) async -> Outcome {
        guard let kept = await keeper.kept() else { return .nothingKept }
        guard kept.expiration > now else {
            await keeper.forget()
            return .ended
        }
        let api = makeClient(kept.server)
        do throws(StudentLocationsError) {
            let session = try await api.resume(accountKey: kept.accountKey, sessionId: kept.sessionId,
                                               expiration: kept.expiration)
            return .resumed(session, api: api, server: kept.server)
        } catch .notLoggedIn {
            await keeper.forget()
            return .ended
        } catch {
            return .failed(error)
        }
    }

    /// After a login: kept if the user asked to stay logged in, else any older one forgotten.
    public func loggedIn(_ session: UserSession, server: URL, stay: Bool) async throws(SessionKeepingError) {
        guard stay else { return await keeper.forget() }
        try await keeper.keep(KeptSession(server: server, accountKey: session.accountKey, sessionId: session.sessionId,
                                          expiration: session.expiration))
    }

    /// Log Out, or the server refusing the session: nothing to resume next time.
    public func loggedOut() async {
        await keeper.forget()
    }
}

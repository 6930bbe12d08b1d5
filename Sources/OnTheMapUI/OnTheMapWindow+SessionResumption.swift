import Foundation
import GLibSwift
import Logging
import StudentLocations

/// The window's side of staying logged in: a kept session resumed at start, and the keyring told of each
/// login and logout, its writes one after another.
extension OnTheMapWindow {
    /// At start: the keyring is asked off the main loop while the login page waits; a live kept session skips it.
    func resumeKeptSession() {
        loginPage.setBusy(true)
        loginTask = Task { [weak self, resumption] in
            let answers = await resumption.keeper.isAvailable()
            self?.loginPage.offerStayingLoggedIn(keyringAnswers: answers)
            self?.resumed(answers ? await resumption.resume() : .nothingKept)
        }
    }

    /// Logged in: the session is kept, or a kept one forgotten, as the login page's "Stay logged in" says.
    func keepSessionAsChosen(_ session: UserSession, server: URL) {
        guard loginPage.canStayLoggedIn else { return }
        let stay = loginPage.staysLoggedIn
        inKeyringOrder { [resumption, logger = services.logger] in
            do throws(SessionKeepingError) {
                try await resumption.loggedIn(session, server: server, stay: stay)
            } catch {
                logger.warning("\(error)")
            }
        }
    }

    /// Logged out: the kept session goes too.
    func forgetKeptSession() {
        inKeyringOrder { [resumption] in await resumption.loggedOut() }
    }

    private func resumed(_ outcome: SessionResumption.Outcome) {
        loginTask = nil
        guard lifetime.isAlive, !closing else { return }
        switch outcome {
        case .nothingKept:
            loginPage.setBusy(false)
            loginPage.focus()
        case .resumed(let session, let api, let server):
            services.logger.info("Resumed a kept session on \(server.host ?? server.absoluteString) as account \(session.accountKey)")
            loginPage.setStaysLoggedIn(true)
            start(session, api: api, server: server)
        case .ended:
            loginPage.setBusy(false)
            loginPage.setStaysLoggedIn(true)
            loginPage.showSessionEnded(true)
            loginPage.focus()
        case .failed(let error):
            // Kept for the next start: the server may only be out of reach.
            loginPage.setBusy(false)
            loginPage.setStaysLoggedIn(true)
            Alert.show(over: window, title: error.title, message: error.description)
        }
    }

    private func inKeyringOrder(_ work: @escaping @MainActor () async -> Void) {
        let previous = keyringWork
        keyringWork = Task {
            await previous?.value
            await work()
        }
    }
}

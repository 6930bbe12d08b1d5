import CGtk
import Foundation
import GLibSwift
import Layouts
import StudentLocations
import Translations

/// The login page: email, password, the server (folded away under "Server"), Log In and Sign Up.
/// Log In is sensitive only when both fields are filled; while a login runs the form is
/// insensitive and a spinner turns. "Stay logged in" shows once the keyring has answered, insensitive where none does.
@MainActor
final class LoginPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let emailEntry: UnsafeMutablePointer<GtkWidget>
    private let passwordEntry: UnsafeMutablePointer<GtkWidget>
    private let serverEntry: UnsafeMutablePointer<GtkWidget>
    private let logInButton: UnsafeMutablePointer<GtkWidget>
    private let signUpButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let stayLoggedInButton: UnsafeMutablePointer<GtkWidget>
    private let sessionEndedLabel: UnsafeMutablePointer<GtkWidget>
    private var busy = false
    private var keyringAnswers = false

    /// The user asked to log in with these; the server is already checked (`ServerAddress`).
    var onLogIn: ((_ email: String, _ password: String, _ server: URL) -> Void)?
    /// The server field holds something that is not a usable address.
    var onBadServer: ((ServerAddressError) -> Void)?

    init(server: URL) {
        let layout = Layouts.builder("login-page")
        root = layout.object("root")
        lifetime = WidgetLifetime(root)
        emailEntry = layout.object("email-entry")
        passwordEntry = layout.object("password-entry")
        serverEntry = layout.object("server-entry")
        logInButton = layout.object("log-in-button")
        signUpButton = layout.object("sign-up-button")
        spinner = layout.object("spinner")
        stayLoggedInButton = layout.object("stay-logged-in")
        sessionEndedLabel = layout.object("session-ended")

        // Run from the build folder the app's icon is not installed: the theme's pin stands in.
        let installed = gtk_icon_theme_has_icon(gtk_icon_theme_get_default(), OnTheMapInfo.id) != 0
        gtk_image_set_from_icon_name(layout.object("icon", as: GtkImage.self),
                                     installed ? OnTheMapInfo.id : "mark-location-symbolic", GTK_ICON_SIZE_DIALOG)
        gtk_entry_set_placeholder_text(serverEntry.cast(), ServerAddress.udacity.absoluteString)
        gtk_entry_set_text(serverEntry.cast(), server.absoluteString)
        // Shown open when it is not Udacity's, so nobody logs in to a server they did not expect.
        gtk_expander_set_expanded(layout.object("server-expander", as: GtkExpander.self), server == ServerAddress.udacity ? 0 : 1)
        gtk_link_button_set_uri(signUpButton.cast(), Self.signUpAddress(for: server))

        emailEntry.connect(.changed) { [weak self] in self?.updateSensitivity() }
        passwordEntry.connect(.changed) { [weak self] in self?.updateSensitivity() }
        serverEntry.connect(.changed) { [weak self] in self?.serverChanged() }
        emailEntry.connect(.activate) { [weak self] in self?.focusPasswordOrSubmit() }
        passwordEntry.connect(.activate) { [weak self] in self?.submit() }
        serverEntry.connect(.activate) { [weak self] in self?.submit() }
        logInButton.connect(.clicked) { [weak self] in self?.submit() }
        updateSensitivity()
    }

    /// Udacity's own sign-up page, or a self-hosted server's `/signup` form.
    static func signUpAddress(for server: URL) -> String {
        if server == ServerAddress.udacity { return "https://auth.udacity.com/sign-up" }
        return URL(string: "/signup", relativeTo: server)?.absoluteString ?? server.absoluteString
    }

    // MARK: State

    var email: String { text(of: emailEntry) }
    private var password: String { text(of: passwordEntry) }

    private func text(of entry: UnsafeMutablePointer<GtkWidget>) -> String {
        guard lifetime.isAlive else { return "" }
        return String(cString: gtk_entry_get_text(entry.cast()))
    }

    private func updateSensitivity() {
        guard lifetime.isAlive else { return }
        let filled = !email.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty
        gtk_widget_set_sensitive(logInButton, (filled && !busy).gboolean)
    }

    private func serverChanged() {
        guard lifetime.isAlive else { return }
        if let server = try? ServerAddress.resolve(text(of: serverEntry)) {
            gtk_link_button_set_uri(signUpButton.cast(), Self.signUpAddress(for: server))
        }
    }

    // MARK: Staying logged in

    /// Whether a keyring answered, so the box's state means something.
    var canStayLoggedIn: Bool { keyringAnswers }

    /// Whether the user asked to keep the session for the next start (only where a keyring answers).
    var staysLoggedIn: Bool {
        lifetime.isAlive && keyringAnswers && gtk_toggle_button_get_active(stayLoggedInButton.cast()) != 0
    }

    /// Shows "Stay logged in" once the keyring has answered: usable if it did, else insensitive, saying why.
    func offerStayingLoggedIn(keyringAnswers: Bool) {
        guard lifetime.isAlive else { return }
        self.keyringAnswers = keyringAnswers
        if !keyringAnswers {
            gtk_toggle_button_set_active(stayLoggedInButton.cast(), 0)
            gtk_widget_set_tooltip_text(stayLoggedInButton, tr("No unlocked keyring answers on this computer, so your session can't be kept."))
        }
        gtk_widget_set_sensitive(stayLoggedInButton, (keyringAnswers && !busy).gboolean)
        gtk_widget_show(stayLoggedInButton)
    }

    /// Ticked when the page comes back after a kept session, so logging in again keeps the new one.
    func setStaysLoggedIn(_ stays: Bool) {
        guard lifetime.isAlive else { return }
        gtk_toggle_button_set_active(stayLoggedInButton.cast(), stays.gboolean)
    }

    /// "Your session ended; please log in again." above the form, until the next login.
    func showSessionEnded(_ shown: Bool) {
        guard lifetime.isAlive else { return }
        if shown { gtk_widget_show(sessionEndedLabel) } else { gtk_widget_hide(sessionEndedLabel) }
    }

    /// While a login runs: the form insensitive, the spinner turning.
    func setBusy(_ busy: Bool) {
        guard lifetime.isAlive else { return }
        self.busy = busy
        gtk_widget_set_sensitive(emailEntry, (!busy).gboolean)
        gtk_widget_set_sensitive(passwordEntry, (!busy).gboolean)
        gtk_widget_set_sensitive(serverEntry, (!busy).gboolean)
        gtk_widget_set_sensitive(stayLoggedInButton, (!busy && keyringAnswers).gboolean)
        if busy { gtk_spinner_start(spinner.cast()) } else { gtk_spinner_stop(spinner.cast()) }
        updateSensitivity()
    }

    /// After a logout or a failed login: the password goes, the email stays.
    func reset(focusPassword: Bool) {
        guard lifetime.isAlive else { return }
        setBusy(false)
        gtk_entry_set_text(passwordEntry.cast(), "")
        gtk_widget_grab_focus(email.isEmpty || !focusPassword ? emailEntry : passwordEntry)
    }

    func focus() {
        guard lifetime.isAlive else { return }
        gtk_widget_grab_focus(email.isEmpty ? emailEntry : passwordEntry)
    }

    private func focusPasswordOrSubmit() {
        if password.isEmpty { gtk_widget_grab_focus(passwordEntry) } else { submit() }
    }

    private func submit() {
        guard lifetime.isAlive, !busy else { return }
        let email = self.email.trimmingCharacters(in: .whitespaces)
        guard !email.isEmpty, !password.isEmpty else { return }
        do {
            let server = try ServerAddress.resolve(text(of: serverEntry))
            onLogIn?(email, password, server)
        } catch {
            onBadServer?(error)
        }
    }
}

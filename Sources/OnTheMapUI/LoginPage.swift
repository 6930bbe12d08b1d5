import CGtk
import Foundation
import GLibSwift
import StudentLocations
import Translations

/// The login page: email, password, the server (folded away under "Server"), Log In and Sign Up.
/// Log In is sensitive only when both fields are filled; while a login runs the form is
/// insensitive and a spinner turns.
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
    private let form: UnsafeMutablePointer<GtkWidget>
    private var busy = false

    /// The user asked to log in with these; the server is already checked (`ServerAddress`).
    var onLogIn: ((_ email: String, _ password: String, _ server: URL) -> Void)?
    /// The server field holds something that is not a usable address.
    var onBadServer: ((ServerAddressError) -> Void)?

    init(server: URL) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        lifetime = WidgetLifetime(root)
        gtk_widget_set_halign(root, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(root, GTK_ALIGN_CENTER)
        Widgets.setMargins(root, 36)

        // Run from the build folder the app's icon is not installed: the theme's pin stands in.
        let installed = gtk_icon_theme_has_icon(gtk_icon_theme_get_default(), OnTheMapInfo.id) != 0
        let icon = gtk_image_new_from_icon_name(installed ? OnTheMapInfo.id : "mark-location-symbolic", GTK_ICON_SIZE_DIALOG)!
        gtk_image_set_pixel_size(icon.cast(), 96)
        let title = gtk_label_new(tr("Log in to On the Map"))!
        Widgets.addStyleClass(title, "login-title")
        let subtitle = gtk_label_new(tr("See where your classmates are studying, and share your own place."))!
        Widgets.addStyleClass(subtitle, "dim-label")
        gtk_label_set_line_wrap(subtitle.cast(), 1)
        gtk_label_set_justify(subtitle.cast(), GTK_JUSTIFY_CENTER)
        gtk_label_set_max_width_chars(subtitle.cast(), 40)

        form = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_size_request(form, 320, -1)
        emailEntry = Self.entry(name: tr("Email"), placeholder: tr("Email"), purpose: GTK_INPUT_PURPOSE_EMAIL)
        passwordEntry = Self.entry(name: tr("Password"), placeholder: tr("Password"), purpose: GTK_INPUT_PURPOSE_PASSWORD)
        gtk_entry_set_visibility(passwordEntry.cast(), 0)
        logInButton = gtk_button_new_with_label(tr("Log In"))
        Widgets.addStyleClass(logInButton, "suggested-action")
        gtk_widget_set_can_default(logInButton, 1)
        spinner = gtk_spinner_new()
        Widgets.setAccessibleName(spinner, tr("Logging In"))
        let buttonRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_pack_start(buttonRow.cast(), logInButton, 1, 1, 0)
        gtk_box_pack_start(buttonRow.cast(), spinner, 0, 0, 0)

        serverEntry = Self.entry(name: tr("Server"), placeholder: ServerAddress.udacity.absoluteString,
                                 purpose: GTK_INPUT_PURPOSE_URL)
        gtk_entry_set_text(serverEntry.cast(), server.absoluteString)
        let expander = gtk_expander_new(tr("Server"))!
        let serverBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        let serverHint = gtk_label_new(tr("Your class's On the Map server, or Udacity's."))!
        Widgets.addStyleClass(serverHint, "dim-label")
        gtk_label_set_xalign(serverHint.cast(), 0)
        gtk_container_add(serverBox.container, serverEntry)
        gtk_container_add(serverBox.container, serverHint)
        gtk_widget_set_margin_top(serverBox, 6)
        gtk_container_add(expander.container, serverBox)
        // Shown open when it is not Udacity's, so nobody logs in to a server they did not expect.
        gtk_expander_set_expanded(expander.cast(), server == ServerAddress.udacity ? 0 : 1)

        signUpButton = gtk_link_button_new_with_label(Self.signUpAddress(for: server), tr("Sign Up"))
        let signUpRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_set_halign(signUpRow, GTK_ALIGN_CENTER)
        gtk_container_add(signUpRow.container, gtk_label_new(tr("Don't have an account?")))
        gtk_container_add(signUpRow.container, signUpButton)

        for widget in [emailEntry, passwordEntry, buttonRow, expander] {
            gtk_container_add(form.container, widget)
        }
        gtk_box_pack_start(root.cast(), icon, 0, 0, 0)
        gtk_box_pack_start(root.cast(), title, 0, 0, 12)
        gtk_box_pack_start(root.cast(), subtitle, 0, 0, 0)
        gtk_box_pack_start(root.cast(), form, 0, 0, 24)
        gtk_box_pack_start(root.cast(), signUpRow, 0, 0, 0)
        gtk_widget_show_all(root)

        emailEntry.connect(.changed) { [weak self] in self?.updateSensitivity() }
        passwordEntry.connect(.changed) { [weak self] in self?.updateSensitivity() }
        serverEntry.connect(.changed) { [weak self] in self?.serverChanged() }
        emailEntry.connect(.activate) { [weak self] in self?.focusPasswordOrSubmit() }
        passwordEntry.connect(.activate) { [weak self] in self?.submit() }
        serverEntry.connect(.activate) { [weak self] in self?.submit() }
        logInButton.connect(.clicked) { [weak self] in self?.submit() }
        updateSensitivity()
    }

    private static func entry(name: String, placeholder: String, purpose: GtkInputPurpose) -> UnsafeMutablePointer<GtkWidget> {
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(entry.cast(), placeholder)
        gtk_entry_set_input_purpose(entry.cast(), purpose)
        Widgets.setAccessibleName(entry, name)
        return entry
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

    /// While a login runs: the form insensitive, the spinner turning.
    func setBusy(_ busy: Bool) {
        guard lifetime.isAlive else { return }
        self.busy = busy
        gtk_widget_set_sensitive(emailEntry, (!busy).gboolean)
        gtk_widget_set_sensitive(passwordEntry, (!busy).gboolean)
        gtk_widget_set_sensitive(serverEntry, (!busy).gboolean)
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

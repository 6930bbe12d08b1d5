import CGtk
import Foundation
import GLibSwift
import Layouts
import Logging
import MapView
import Places
import StudentLocations
import Translations

/// The one window: the login page, or (logged in) the classmates on a map and in a list, with
/// Log Out on the left of the header bar, Refresh and Add Location on the right and a Map | List
/// switcher in the middle.
@MainActor
final class OnTheMapWindow {
    struct Services {
        var configuration: OnTheMapConfiguration
        var finder: PlaceFinder
        var logger: Logger
        /// Builds the API client for the server the user logs in to.
        var makeClient: (URL) -> any StudentLocationsAPI
        /// Starts each map's tile fetching.
        var tileFetcher: TileFetcherFactory
        /// Where "Stay logged in" keeps the session.
        var sessionKeeper: any SessionKeeper
    }

    let window: UnsafeMutablePointer<GtkWidget>
    let lifetime: WidgetLifetime
    let services: Services
    private let headerBar: UnsafeMutablePointer<GtkWidget>
    private let pages: UnsafeMutablePointer<GtkWidget>
    private let content: UnsafeMutablePointer<GtkWidget>
    private let switcher: UnsafeMutablePointer<GtkWidget>
    private let switcherLifetime: WidgetLifetime
    private let logOutButton: UnsafeMutablePointer<GtkWidget>
    private let refreshButton: UnsafeMutablePointer<GtkWidget>
    private let addButton: UnsafeMutablePointer<GtkWidget>
    private let refreshSpinner: UnsafeMutablePointer<GtkWidget>
    /// Above the map and the list: the server sent more than asked, and which students are shown.
    private let excessBar: UnsafeMutablePointer<GtkWidget>
    private let excessLabel: UnsafeMutablePointer<GtkWidget>
    let loginPage: LoginPage
    private let mapPage: StudentMapPage
    private let listPage: StudentListPage
    private var session: UserSession?
    private var directory: StudentDirectory?
    private var observation: ObservationToken?
    var loginTask: Task<Void, Never>?
    let resumption: SessionResumption
    /// The keyring's writes, one after another, so a Log Out's forget never lands after the next login's keep.
    var keyringWork: Task<Void, Never>?
    private var failureAlert: UnsafeMutablePointer<GtkWidget>?
    private var refreshAction: OpaquePointer?
    private var addAction: OpaquePointer?
    private var logOutAction: OpaquePointer?
    private(set) var closing = false

    init(application: UnsafeMutablePointer<GtkApplication>, services: Services) {
        self.services = services
        resumption = SessionResumption(keeper: services.sessionKeeper, makeClient: services.makeClient)
        let layout = Layouts.builder("on-the-map-window")
        window = layout.object("window") // a toplevel: GTK keeps it once the layout goes
        lifetime = WidgetLifetime(window)
        gtk_window_set_application(window.cast(), application)
        headerBar = layout.object("header-bar")
        logOutButton = layout.object("log-out-button")
        refreshButton = layout.object("refresh-button")
        addButton = layout.object("add-button")
        refreshSpinner = layout.object("refresh-spinner")
        pages = layout.object("pages")
        content = layout.object("content")
        // Out of the window while the login page shows, so it needs a reference of its own.
        switcher = layout.object("switcher")
        switcherLifetime = WidgetLifetime(switcher)
        excessBar = layout.object("excess-bar")
        excessLabel = layout.object("excess-label")

        loginPage = LoginPage(server: services.configuration.server)
        mapPage = StudentMapPage(tileSource: services.configuration.tileSource,
                                 tileCacheFolder: services.configuration.tileCacheFolder,
                                 tileFetcher: services.tileFetcher, logger: services.logger)
        listPage = StudentListPage()
        for (slot, page) in [("login-slot", loginPage.root), ("map-slot", mapPage.root), ("list-slot", listPage.root)] {
            gtk_box_pack_start(layout.object(slot, as: GtkBox.self), page, 1, 1, 0)
        }

        addActions()
        loginPage.onLogIn = { [weak self] email, password, server in self?.logIn(email, password, server) }
        loginPage.onBadServer = { [weak self] error in
            guard let self else { return }
            Alert.show(over: self.window, title: tr("That server address can't be used"), message: "\(error)")
        }
        let openLink: (URL) -> Void = { [weak self] url in LinkOpener.open(url, over: self?.window) }
        mapPage.onOpenLink = openLink
        listPage.onOpenLink = openLink
        listPage.onNotAWebLink = { [weak self] student in
            guard let self else { return }
            // Translators: %1$@ is a student's name; %2$@ the text they shared as their link.
            let message = formatted(tr("%1$@ shared “%2$@”, which is not a web address (http or https)."), student.fullName, student.mediaURL)
            Alert.show(over: self.window, kind: GTK_MESSAGE_INFO, title: tr("This link can't be opened"), message: message)
        }
        window.connect(.delete) { [weak self] _ in
            guard let self else { return false }
            self.close()
            return true // destroyed once the map's tile downloads are cancelled
        }
        lifetime.onDestroy { [weak self] in
            self?.loginTask?.cancel()
            self?.observation?.cancel()
            self?.directory?.clear()
        }
        excessBar.connect(.response) { [weak self] _ in
            if let self { gtk_widget_hide(self.excessBar) }
        }
        gtk_widget_show_all(window)
        showLogin()
        resumeKeptSession()
        for problem in services.configuration.problems {
            Alert.show(over: window, kind: GTK_MESSAGE_WARNING, title: tr("A setting was not usable"), message: problem)
        }
    }

    var isOpen: Bool { lifetime.isAlive && !closing }

    func present() {
        if lifetime.isAlive { gtk_window_present(window.cast()) }
    }

    /// Closes like the close button: waits for the maps' cancelled tile downloads (osm-gps-map must
    /// not be destroyed while libsoup still reports them), then destroys the window.
    func close() {
        guard lifetime.isAlive, !closing else { return }
        closing = true
        gtk_widget_hide(window)
        // A session being kept or forgotten is finished first: the app ends with the window.
        Task { [keyringWork, mapPage, window, lifetime] in
            await keyringWork?.value
            mapPage.mapWidget.cancelTileDownloads {
                if lifetime.isAlive { gtk_widget_destroy(window) }
            }
        }
    }

    // MARK: Actions

    private func addActions() {
        refreshAction = SimpleAction.add("refresh", to: window) { [weak self] in self?.refresh() }
        addAction = SimpleAction.add("add-location", to: window) { [weak self] in self?.addLocation() }
        logOutAction = SimpleAction.add("log-out", to: window) { [weak self] in self?.logOut() }
        SimpleAction.add("zoom-in", to: window) { [weak self] in self?.mapPage.mapWidget.zoomIn() }
        SimpleAction.add("zoom-out", to: window) { [weak self] in self?.mapPage.mapWidget.zoomOut() }
        SimpleAction.add("show-map", to: window) { [weak self] in self?.showContent("map") }
        SimpleAction.add("show-list", to: window) { [weak self] in self?.showContent("list") }
    }

    private func setLoggedInActionsEnabled(_ enabled: Bool) {
        for action in [refreshAction, addAction, logOutAction].compactMap({ $0 }) {
            SimpleAction.setEnabled(action, enabled)
        }
    }

    private func showContent(_ name: String) {
        guard lifetime.isAlive, session != nil else { return }
        gtk_stack_set_visible_child_name(content.cast(), name)
    }

    // MARK: Login and logout

    private func showLogin() {
        guard lifetime.isAlive else { return }
        gtk_stack_set_visible_child_name(pages.cast(), "login")
        gtk_header_bar_set_custom_title(headerBar.cast(), nil)
        for widget in [logOutButton, refreshButton, addButton, refreshSpinner] { gtk_widget_hide(widget) }
        setLoggedInActionsEnabled(false)
        loginPage.focus()
    }

    private func showStudents() {
        guard lifetime.isAlive else { return }
        gtk_stack_set_visible_child_name(pages.cast(), "students")
        gtk_header_bar_set_custom_title(headerBar.cast(), switcher)
        for widget in [logOutButton, refreshButton, addButton, switcher] { gtk_widget_show(widget) }
        setLoggedInActionsEnabled(true)
    }

    private func logIn(_ email: String, _ password: String, _ server: URL) {
        guard loginTask == nil else { return }
        loginPage.setBusy(true)
        let api = services.makeClient(server)
        loginTask = Task { [weak self] in
            let result: Result<UserSession, StudentLocationsError>
            do throws(StudentLocationsError) { result = .success(try await api.logIn(email: email, password: password)) } catch { result = .failure(error) }
            self?.loggedIn(result, api: api, server: server)
        }
    }

    private func loggedIn(_ result: Result<UserSession, StudentLocationsError>, api: any StudentLocationsAPI, server: URL) {
        loginTask = nil
        guard lifetime.isAlive, !closing else { return }
        switch result {
        case .success(let session):
            services.logger.info("Logged in to \(server.host ?? server.absoluteString) as account \(session.accountKey)")
            keepSessionAsChosen(session, server: server)
            start(session, api: api, server: server)
        case .failure(.cancelled):
            loginPage.setBusy(false)
        case .failure(let error):
            loginPage.setBusy(false)
            Alert.show(over: window, title: error.title, message: error.description) { [weak self] _ in
                self?.loginPage.reset(focusPassword: error == .invalidCredentials)
            }
        }
    }

    /// Logged in or resumed: the class on the map.
    func start(_ session: UserSession, api: any StudentLocationsAPI, server: URL) {
        services.configuration.rememberServer(server)
        self.session = session
        let directory = StudentDirectory(api: api)
        self.directory = directory
        observation = directory.observe { [weak self] in self?.directoryChanged() }
        loginPage.reset(focusPassword: false)
        loginPage.showSessionEnded(false)
        gtk_stack_set_visible_child_name(content.cast(), "map")
        showStudents()
        refresh()
    }

    private func logOut() {
        guard let session, let directory else { return }
        forgetKeptSession()
        let api = directory.api
        self.session = nil
        observation?.cancel()
        observation = nil
        self.directory = nil
        directory.clear()
        mapPage.show([], mine: nil)
        listPage.show([], mine: nil)
        showExcess(nil)
        dismissFailure()
        showLogin()
        // The page is back at once; the server is told in the background and only a failure is shown.
        Task { [weak self] in
            do throws(StudentLocationsError) {
                try await api.logOut(session)
            } catch {
                self?.logOutFailed(error)
            }
        }
    }

    private func logOutFailed(_ error: StudentLocationsError) {
        guard lifetime.isAlive, !closing, error != .notLoggedIn else { return }
        // Translators: %@ is the sentence saying what went wrong, e.g. "Can't reach the server at example.org (…). …"
        let message = formatted(tr("%@ The server ends your session by itself when it expires."), error.description)
        Alert.show(over: window, kind: GTK_MESSAGE_WARNING, title: tr("Logged out on this computer only"), message: message)
    }

    // MARK: The students

    private func refresh() {
        guard let directory else { return }
        dismissFailure()
        Task { await directory.refresh() }
    }

    private func directoryChanged() {
        guard lifetime.isAlive, let directory else { return }
        let mine = session?.accountKey
        switch directory.state {
        case .loading:
            gtk_widget_show(refreshSpinner)
            gtk_spinner_start(refreshSpinner.cast())
            gtk_widget_set_sensitive(refreshButton, 0)
            return
        case .failed(let error):
            showFailure(error)
        case .empty, .loaded:
            break
        }
        gtk_spinner_stop(refreshSpinner.cast())
        gtk_widget_hide(refreshSpinner)
        gtk_widget_set_sensitive(refreshButton, 1)
        mapPage.show(directory.students, mine: mine)
        listPage.show(directory.students, mine: mine)
        showExcess(directory.excess)
    }

    private func showExcess(_ excess: ExcessAnswer?) {
        guard let excess else { return gtk_widget_hide(excessBar) }
        gtk_label_set_text(excessLabel.cast(), excess.description)
        gtk_widget_show(excessBar)
    }

    private func showFailure(_ error: StudentLocationsError) {
        dismissFailure()
        if error == .notLoggedIn {
            failureAlert = Alert.show(over: window, kind: GTK_MESSAGE_WARNING, title: error.title, message: error.description) { [weak self] _ in
                self?.failureAlert = nil
                self?.logOut()
            }
            return
        }
        // Translators: %1$@ is a short heading of what went wrong, e.g. "Can't reach the server"; %2$@ the sentence after it.
        let message = formatted(tr("%1$@. %2$@"), error.title, error.description)
        failureAlert = Alert.show(over: window, title: tr("Couldn't download the students' locations"), message: message,
                                  buttons: [Alert.Button(label: tr("Close"), response: GTK_RESPONSE_CLOSE),
                                            Alert.Button(label: tr("Retry"), response: GTK_RESPONSE_ACCEPT, suggested: true)]) { [weak self] response in
            self?.failureAlert = nil
            if response == GTK_RESPONSE_ACCEPT { self?.refresh() }
        }
    }

    private func dismissFailure() {
        guard let alert = failureAlert else { return }
        failureAlert = nil
        gtk_widget_destroy(alert)
    }

    private func addLocation() {
        guard lifetime.isAlive, let session, let directory else { return }
        let configuration = services.configuration
        AddLocationDialog.present(over: window, services: .init(api: directory.api, session: session, finder: services.finder,
                                                                tileSource: configuration.tileSource,
                                                                tileCacheFolder: configuration.tileCacheFolder,
                                                                tileFetcher: services.tileFetcher,
                                                                logger: services.logger)) { [weak self] in
            self?.posted()
        }
    }

    /// After a post: download again, then show the user's own pin.
    private func posted() {
        guard let directory, let session else { return }
        dismissFailure()
        Task { [weak self] in
            await directory.refresh()
            guard let self, self.lifetime.isAlive, let mine = directory.myLocation(accountKey: session.accountKey) else { return }
            self.showContent("map")
            self.mapPage.centre(on: mine)
        }
    }
}

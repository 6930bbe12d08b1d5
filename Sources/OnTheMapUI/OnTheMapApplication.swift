import CGtk
import Foundation
import GLibSwift
import Logging
import MapView
import Places
import Translations

/// The GtkApplication: one instance over D-Bus, app-wide actions and shortcuts, the window.
@MainActor
public final class OnTheMapApplication {
    private let desktop: DesktopApplication
    private let configuration: OnTheMapConfiguration
    private let services: OnTheMapServices
    private let logger: Logger
    private let finder: PlaceFinder
    private var window: OnTheMapWindow?

    public init(configuration: OnTheMapConfiguration, services: OnTheMapServices, logger: Logger) {
        self.configuration = configuration
        self.services = services
        self.logger = logger
        FontLoading.start()
        ImageLoaders.preload()
        finder = PlaceFinder(offline: OfflineCities(), online: services.geocoder, logger: logger)
        for problem in configuration.problems { logger.warning("\(problem)") }
        desktop = DesktopApplication(id: OnTheMapInfo.id, programName: OnTheMapInfo.programName,
                                     name: OnTheMapInfo.name)
        desktop.application.connect(.startup) { [weak self] in self?.startup() }
        desktop.application.connect(.activate) { [weak self] in self?.activate() }
    }

    /// Runs the main loop; returns the exit status.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        desktop.run(arguments: arguments)
    }

    private func startup() {
        Stylesheet.install()
        gtk_window_set_default_icon_name(OnTheMapInfo.id)
        desktop.addAction("quit", accels: ["<Primary>q"]) { [weak self] in self?.quit() }
        desktop.addAction("about") { [weak self] in AboutOnTheMap.present(over: self?.window?.window) }
        desktop.setAccels("win.refresh", ["<Primary>r", "F5"])
        desktop.setAccels("win.add-location", ["<Primary>n"])
        desktop.setAccels("win.zoom-in", ["<Primary>plus", "<Primary>equal", "<Primary>KP_Add"])
        desktop.setAccels("win.zoom-out", ["<Primary>minus", "<Primary>KP_Subtract"])
        desktop.setAccels("win.show-map", ["<Alt>1"])
        desktop.setAccels("win.show-list", ["<Alt>2"])
        desktop.onTerminationSignals { [weak self] _ in self?.quit() }
    }

    private func activate() {
        if window?.isOpen != true {
            window = OnTheMapWindow(application: desktop.application, services: .init(
                configuration: configuration, finder: finder, logger: logger, makeClient: services.makeClient,
                tileFetcher: services.tiles, sessionKeeper: services.sessionKeeper))
        }
        window?.present()
    }

    /// Ctrl+Q and signals close the window as its close button does; the app ends with it.
    private func quit() {
        if let window, window.isOpen {
            window.close()
        } else {
            desktop.quit()
        }
    }
}

/// About, with the credits the map data and place names ask for.
@MainActor
enum AboutOnTheMap {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        let dialog = gtk_about_dialog_new()!
        let about: UnsafeMutablePointer<GtkAboutDialog> = dialog.cast()
        gtk_about_dialog_set_program_name(about, OnTheMapInfo.name)
        gtk_about_dialog_set_version(about, OnTheMapInfo.version)
        gtk_about_dialog_set_logo_icon_name(about, OnTheMapInfo.id)
        gtk_about_dialog_set_comments(about, tr("See where your classmates are studying, and share your own place."))
        gtk_about_dialog_set_website(about, OnTheMapInfo.website)
        gtk_about_dialog_set_license_type(about, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_copyright(about, tr("© 2026 The Virtual Tourist developers"))
        withCStringArray([tr("© OpenStreetMap contributors https://www.openstreetmap.org/copyright")]) {
            gtk_about_dialog_add_credit_section(about, tr("Map data and addresses"), $0)
        }
        // Translators: keep the web address where it is: the About window makes it a link.
        withCStringArray([tr("GeoNames https://www.geonames.org/ (CC BY 4.0)")]) {
            gtk_about_dialog_add_credit_section(about, tr("City names"), $0)
        }
        if let parent {
            gtk_window_set_transient_for(dialog.cast(), parent.cast())
            gtk_window_set_modal(dialog.cast(), 1)
        }
        dialog.connect(.response) { _ in gtk_widget_destroy(dialog) }
        gtk_widget_show(dialog)
    }
}

import CGtk
import Foundation
import GLibSwift
import Layouts
import Logging
import MapView
import OnTheMapAPI
import Places
import StudentLocations
import Translations

/// Add Location: a modal dialog in two steps (where, then the place on a map and the link) that keeps what was
/// typed when a step fails and asks before overwriting the user's earlier location.
@MainActor
final class AddLocationDialog {
    struct Services {
        var api: any StudentLocationsAPI
        var session: UserSession
        var finder: PlaceFinder
        var tileSource: TileSource
        var tileCacheFolder: URL
        var tileFetcher: TileFetcherFactory
        var logger: Logger
    }

    private let dialog: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let services: Services
    private let steps: UnsafeMutablePointer<GtkWidget>
    private let locationEntry: UnsafeMutablePointer<GtkWidget>
    private let findButton: UnsafeMutablePointer<GtkWidget>
    private let linkEntry: UnsafeMutablePointer<GtkWidget>
    private let submitButton: UnsafeMutablePointer<GtkWidget>
    private let backButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let placeName: UnsafeMutablePointer<GtkWidget>
    private let placeCoordinates: UnsafeMutablePointer<GtkWidget>
    private let map: MapWidget
    private let pin: PinLayer
    private var place: Place?
    private var work: Task<Void, Never>?
    private var closing = false
    /// Told once the location is stored on the server.
    private let onPosted: @MainActor () -> Void

    /// Opens the dialog over `parent`; `onPosted` runs after a successful post or update.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, services: Services,
                        onPosted: @escaping @MainActor () -> Void) -> AddLocationDialog {
        let dialog = AddLocationDialog(parent: parent, services: services, onPosted: onPosted)
        gtk_widget_show_all(dialog.dialog)
        gtk_widget_grab_focus(dialog.locationEntry)
        return dialog
    }

    private init(parent: UnsafeMutablePointer<GtkWidget>, services: Services, onPosted: @escaping @MainActor () -> Void) {
        self.services = services
        self.onPosted = onPosted
        let layout = Layouts.builder("add-location-dialog")
        dialog = layout.object("dialog") // a toplevel: GTK keeps it once the layout goes
        lifetime = WidgetLifetime(dialog)
        gtk_window_set_transient_for(dialog.cast(), parent.cast())
        steps = layout.object("steps")
        locationEntry = layout.object("location-entry")
        findButton = layout.object("find-button")
        placeName = layout.object("place-name")
        placeCoordinates = layout.object("place-coordinates")
        linkEntry = layout.object("link-entry")
        backButton = layout.object("back-button")
        submitButton = layout.object("submit-button")
        spinner = layout.object("spinner")
        let cancelButton: UnsafeMutablePointer<GtkWidget> = layout.object("cancel-button")
        map = MapWidget(tileSource: services.tileSource, tileCacheFolder: services.tileCacheFolder,
                        userAgent: OnTheMapInfo.userAgent, fetcher: services.tileFetcher, logger: services.logger,
                        zoomButtons: false)
        gtk_box_pack_start(layout.object("map-slot", as: GtkBox.self), map.root, 1, 1, 0)
        pin = PinLayer(map: map.map)
        map.pinLayer = pin

        locationEntry.connect(.changed) { [weak self] in self?.updateSensitivity() }
        locationEntry.connect(.activate) { [weak self] in self?.find() }
        findButton.connect(.clicked) { [weak self] in self?.find() }
        linkEntry.connect(.activate) { [weak self] in self?.submit() }
        submitButton.connect(.clicked) { [weak self] in self?.submit() }
        backButton.connect(.clicked) { [weak self] in self?.showStep("find") }
        cancelButton.connect(.clicked) { [weak self] in self?.close() }
        dialog.connect(.delete) { [weak self] _ in
            self?.close()
            return true // closed once the map's tile downloads are cancelled
        }
        lifetime.onDestroy { [weak self] in self?.work?.cancel() }
        updateSensitivity()
        lifetime.keep(self) // GTK owns the dialog; the Swift object lives exactly as long as it
    }

    // MARK: Steps

    private var isBusy: Bool { work != nil }

    private func updateSensitivity() {
        guard lifetime.isAlive else { return }
        let text = String(cString: gtk_entry_get_text(locationEntry.cast()))
        gtk_widget_set_sensitive(findButton, (!isBusy && !text.trimmingCharacters(in: .whitespaces).isEmpty).gboolean)
    }

    private func setBusy(_ task: Task<Void, Never>?) {
        work = task
        guard lifetime.isAlive else { return }
        gtk_widget_set_sensitive(steps, (task == nil).gboolean)
        if task == nil { gtk_spinner_stop(spinner.cast()) } else { gtk_spinner_start(spinner.cast()) }
        Widgets.setAccessibleName(spinner, task == nil ? "" : tr("Working"))
        updateSensitivity()
    }

    private func showStep(_ name: String) {
        guard lifetime.isAlive else { return }
        gtk_stack_set_visible_child_name(steps.cast(), name)
        gtk_widget_grab_focus(name == "find" ? locationEntry : linkEntry)
    }

    private func find() {
        guard lifetime.isAlive, !isBusy else { return }
        let text = String(cString: gtk_entry_get_text(locationEntry.cast())).trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        let finder = services.finder
        setBusy(Task { [weak self] in
            let result: Result<Place, any Error>
            do { result = .success(try await finder.find(text)) } catch { result = .failure(error) }
            self?.found(result, for: text)
        })
    }

    private func found(_ result: Result<Place, any Error>, for text: String) {
        setBusy(nil)
        guard lifetime.isAlive, !closing else { return }
        switch result {
        case .success(let place):
            self.place = place
            gtk_label_set_text(placeName.cast(), place.name)
            gtk_label_set_text(placeCoordinates.cast(), Self.coordinates(place))
            pin.setPins([PinMark(key: 0, latitude: place.latitude, longitude: place.longitude, tint: .blue)])
            map.show(MapViewport(latitude: place.latitude, longitude: place.longitude,
                                 zoom: place.source == .offlineCities ? 11 : 15))
            showStep("link")
        case .failure(let error as PlaceSearchError):
            let title: String
            switch error {
            case .notFound: title = Self.couldNotFind(text)
            case .geocoderUnreachable:
                // Translators: %@ is the place the user searched for, e.g. "Paris".
                title = formatted(tr("Can't search for “%@” offline"), text)
            case .geocoderFailed: title = tr("The place search failed")
            }
            Alert.show(over: dialog, title: title, message: error.description)
        case .failure(is CancellationError):
            break
        case .failure(let error):
            Alert.show(over: dialog, title: Self.couldNotFind(text), message: "\(error)")
        }
    }

    private static func couldNotFind(_ text: String) -> String {
        // Translators: %@ is the place the user searched for, e.g. "Paris".
        formatted(tr("Couldn't find “%@”"), text)
    }

    /// "48.8566° N, 2.3522° E", with the locale's decimal separator; the whole text is one message per
    /// hemisphere pair, so translators choose the letters, their place and a separator that is not their decimal comma.
    private static func coordinates(_ place: Place) -> String {
        let degrees = FloatingPointFormatStyle<Double>.number.precision(.fractionLength(4)).grouping(.never)
            .locale(Translations.formattingLocale)
        let template: String
        switch (place.latitude >= 0, place.longitude >= 0) {
        case (true, true):
            // Translators: a place's latitude and longitude in degrees, N(orth) and E(ast): "48.8566° N, 2.3522° E".
            template = tr("%1$@° N, %2$@° E")
        case (true, false):
            // Translators: a place's latitude and longitude in degrees, N(orth) and W(est): "40.7128° N, 74.0060° W".
            template = tr("%1$@° N, %2$@° W")
        case (false, true):
            // Translators: a place's latitude and longitude in degrees, S(outh) and E(ast): "33.8688° S, 151.2093° E".
            template = tr("%1$@° S, %2$@° E")
        case (false, false):
            // Translators: a place's latitude and longitude in degrees, S(outh) and W(est): "34.6037° S, 58.3816° W".
            template = tr("%1$@° S, %2$@° W")
        }
        return formatted(template,
                      abs(place.latitude).formatted(degrees), abs(place.longitude).formatted(degrees))
    }

    // MARK: Submit

    private func submit() {
        guard lifetime.isAlive, !isBusy, let place else { return }
        let text = String(cString: gtk_entry_get_text(linkEntry.cast())).trimmingCharacters(in: .whitespaces)
        guard let link = SharedLink.validated(text) else {
            Alert.show(over: dialog, title: text.isEmpty ? tr("Add a link to share") : tr("That is not a web link"),
                       message: tr("Enter the link you want to share, starting with https:// or http://, for example https://github.com/you.")) { [weak self] _ in
                self?.focusLink()
            }
            return
        }
        let api = services.api, session = services.session
        let posting = session.posting(mapString: place.name, mediaURL: link, latitude: place.latitude,
                                      longitude: place.longitude)
        // The server is asked, not the list: the user's location may be older than the newest 100.
        setBusy(Task { [weak self] in
            let existing: Result<StudentInformation?, StudentLocationsError>
            do throws(StudentLocationsError) { existing = .success(try await api.location(of: session.accountKey)) } catch { existing = .failure(error) }
            self?.checked(existing, posting: posting)
        })
    }

    private func checked(_ existing: Result<StudentInformation?, StudentLocationsError>, posting: StudentLocationPosting) {
        setBusy(nil)
        guard lifetime.isAlive, !closing else { return }
        switch existing {
        case .failure(let error):
            postFailed(error)
        case .success(nil):
            store(posting, replacing: nil)
        case .success(let current?):
            let currentPlace: String
            if current.mapString.isEmpty {
                currentPlace = tr("Your location now: a place on the map.")
            } else {
                // Translators: %@ is the place the user posted before, e.g. "Paris, France".
                currentPlace = formatted(tr("Your location now: %@."), current.mapString)
            }
            Alert.show(over: dialog, kind: GTK_MESSAGE_QUESTION, title: tr("You have already posted a location. Overwrite it?"),
                       message: currentPlace,
                       buttons: [Alert.Button(label: tr("Cancel"), response: GTK_RESPONSE_CANCEL),
                                 Alert.Button(label: tr("Overwrite"), response: GTK_RESPONSE_ACCEPT, suggested: true)]) { [weak self] response in
                if response == GTK_RESPONSE_ACCEPT { self?.store(posting, replacing: current.objectId) }
            }
        }
    }

    private func store(_ posting: StudentLocationPosting, replacing objectId: String?) {
        guard lifetime.isAlive, !isBusy else { return }
        let api = services.api, session = services.session
        setBusy(Task { [weak self] in
            let result: Result<Void, StudentLocationsError>
            do throws(StudentLocationsError) {
                if let objectId {
                    try await api.update(objectId: objectId, posting, session: session)
                } else {
                    _ = try await api.post(posting, session: session)
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self?.stored(result)
        })
    }

    private func stored(_ result: Result<Void, StudentLocationsError>) {
        setBusy(nil)
        guard lifetime.isAlive, !closing else { return }
        switch result {
        case .success:
            onPosted()
            close()
        case .failure(let error):
            postFailed(error)
        }
    }

    private func postFailed(_ error: StudentLocationsError) {
        if error == .cancelled { return }
        // Translators: %1$@ is a short heading of what went wrong, e.g. "Can't reach the server"; %2$@ the
        // sentence after it. "Submit" is the dialog's button.
        let message = formatted(tr("%1$@. %2$@\n\nYour place and link are kept: try Submit again."), error.title, error.description)
        Alert.show(over: dialog, title: tr("Couldn't post your location"), message: message)
    }

    private func focusLink() {
        if lifetime.isAlive { gtk_widget_grab_focus(linkEntry) }
    }

    /// Cancels what runs, then closes once the small map's tile downloads are cancelled (osm-gps-map
    /// must not be destroyed with libsoup requests in flight).
    private func close() {
        guard lifetime.isAlive, !closing else { return }
        closing = true
        work?.cancel()
        gtk_widget_hide(dialog)
        map.cancelTileDownloads { [dialog, lifetime] in
            if lifetime.isAlive { gtk_widget_destroy(dialog) }
        }
    }
}

/// The link a student shares: what the list can open (`StudentInformation.openableLink`, the server's
/// rule), with no user part and a real host name; a bare "example.com" gets https://.
enum SharedLink {
    static func validated(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Only a text without any scheme ("mailto:", "javascript:") is taken for a bare host name.
        let hasScheme = trimmed.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil
        guard !trimmed.isEmpty, let url = StudentInformation.openableLink(hasScheme ? trimmed : "https://" + trimmed),
              url.user == nil, let host = url.host, host.contains(".") || host == "localhost" else {
            return nil
        }
        return url.absoluteString
    }
}

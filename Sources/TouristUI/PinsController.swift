import CGtk
import COsmGpsMap
import Foundation
import GLibSwift
import MapView
import Logging
import TouristAlbums
import TouristPlaces
import TouristStore
import Translations

/// Keeps the map's pins in step with the store: the store is the truth the layer draws; gestures
/// become store writes (off the main thread); deletions can be undone for a few seconds.
@MainActor
final class PinsController {
    private let store: any PinStore
    private let albums: AlbumService
    private let writer: PinWriter
    private let layer: PinLayer
    private let notification: InAppNotification
    private let logger: Logger
    private let lifetime: WidgetLifetime
    private var gestures: PinGestures?
    private var positions: StoreObservation?
    private var namesObservation: StoreObservation?
    private var tickets: [PinKey: PinTicket] = [:]
    private var nextPlaceholderKey: PinKey = -1
    /// Where pins dropped in this gesture appeared (under their placeholder key, then their id):
    /// released close by, they keep the search their drop started.
    private var dropPlaces: [PinKey: (latitude: Double, longitude: Double)] = [:]
    private var pendingDeletions: [Int64: PinDeletion] = [:]
    private let menu: PinMenu
    private var hasShownPins = false
    private var hasPokedNamer = false
    private let namer: PinNamer?
    /// Each pin's place name, as the store has it (pins not named yet are absent).
    private var names: [Int64: String] = [:]

    /// A pin was clicked: open its album.
    var onOpen: ((PinMark) -> Void)?
    /// The pointer came onto a pin, or pressed it: its album may be opened next.
    var onHover: ((PinMark) -> Void)?
    /// A pin was deleted (its album page must let go of it).
    var onDeleted: ((Int64) -> Void)?
    /// Some pin's name changed (an open album's title may follow).
    var onNamesChanged: (() -> Void)?

    init(map: UnsafeMutablePointer<OsmGpsMap>, store: any PinStore, albums: AlbumService, namer: PinNamer?,
         notification: InAppNotification, logger: Logger) {
        self.store = store
        self.namer = namer
        self.albums = albums
        self.writer = PinWriter(store: store)
        // Thousands of pins would overlap at low zooms: they are drawn as clusters with their counts.
        self.layer = PinLayer(map: map, clustering: true, logger: logger)
        self.notification = notification
        self.logger = logger
        lifetime = WidgetLifetime(map)
        menu = PinMenu(attachedTo: map.widget)
        gestures = PinGestures(map: map, layer: layer, handlers: .init(
            drop: { [unowned self] latitude, longitude in self.drop(latitude: latitude, longitude: longitude) },
            dragMoved: { _ in },
            dragEnded: { [unowned self] mark in self.dragEnded(mark) },
            activate: { [unowned self] mark in self.activate(mark) },
            contextMenu: { [unowned self] mark, event in self.showMenu(for: mark, event: event) },
            hovered: { [unowned self] mark in self.hovered(mark) }))
        menu.onOpen = { [weak self] mark in self?.activate(mark) }
        menu.onDelete = { [weak self] mark in self?.delete(mark) }
        // Hovering a pin names it.
        gtk_widget_set_has_tooltip(map.widget, 1)
        map.widget.connect(.queryTooltip) { [weak self] x, y, keyboard, tooltip in
            guard let self, !keyboard else { return false }
            if let cluster = self.layer.cluster(atX: Double(x), y: Double(y)) {
                let count = cluster.count.formatted(.number.locale(Translations.formattingLocale))
                // Translators: the tooltip of a cluster of pins on the map; %@ is how many, e.g. "1,234".
                gtk_tooltip_set_text(tooltip, formatted(trn("%@ pin — click to zoom in", "%@ pins — click to zoom in",
                                                                 cluster.count), count))
                return true
            }
            guard let hit = self.layer.pin(atX: Double(x), y: Double(y)) else { return false }
            let mark = self.layer.resolved(hit)
            gtk_tooltip_set_text(tooltip, self.title(of: mark.key, latitude: mark.latitude, longitude: mark.longitude))
            return true
        }
        // Positions and names are watched apart, each boiled down off the main thread: thousands of names
        // arriving wake neither the layer nor its cluster index, and a moved pin does not rebuild the names.
        positions = store.observePinPositions(Self.marks, onError: { [weak self] error in
            self?.logger.error("Could not read the pins: \(error.localizedDescription)")
            // Translators: %@ says why, e.g. "The disk is full."
            self?.notification.show(formatted(tr("Your pins could not be read. %@"), error.localizedDescription))
        }, onChange: { [weak self] marks in
            self?.show(marks)
        })
        namesObservation = store.observePinNames(PinNames.init, onError: { [weak self] error in
            self?.logger.error("Could not read the pins' names: \(error.localizedDescription)")
        }, onChange: { [weak self] names in
            self?.namesChanged(names)
        })
        lifetime.onDestroy { [weak self] in
            self?.positions?.cancel()
            self?.positions = nil
            self?.namesObservation?.cancel()
            self?.namesObservation = nil
            if let namer = self?.namer { Task { await namer.stop() } }
        }
    }

    var pinLayer: PinLayer { layer }

    /// The pin's place name, nil until it has one.
    func name(of id: Int64) -> String? { names[id] }

    /// What people read for a pin: its place name, or its coordinates until it has one.
    func title(of id: Int64, latitude: Double, longitude: Double) -> String {
        names[id] ?? CoordinateFormat.string(latitude: latitude, longitude: longitude)
    }

    /// On quit: let queued writes land and make pending deletions final.
    func finishPendingWork() {
        gestures?.cancel()
        writer.waitUntilIdle()
        for deletion in pendingDeletions.values {
            do { try store.finishPinDeletion(deletion) } catch {
                logger.error("Could not remove a deleted pin's photos: \(error.localizedDescription)")
            }
        }
        pendingDeletions.removeAll()
    }

    // MARK: Store → map

    /// Runs off the main thread: sorting a library's pins for the layer is no work for the main loop.
    private nonisolated static func marks(_ pins: [PinPosition]) -> PinSet {
        PinSet(pins.map { PinMark(key: $0.id, latitude: $0.latitude, longitude: $0.longitude) })
    }

    private func show(_ pins: PinSet) {
        if !hasShownPins {
            hasShownPins = true
            // Not over a message already shown (a setting that cannot be used says so at start).
            if pins.marks.isEmpty && !notification.isShown { notification.show(Self.hint, seconds: 8) }
        }
        layer.setPins(pins)
        logger.trace("pins shown: \(pins.marks.count)")
    }

    private func namesChanged(_ names: PinNames) {
        // Freed on another thread: here, freeing a big library's names stalls on the allocator's lock.
        let old = self.names
        self.names = names.names
        Self.releaseLater(old)
        onNamesChanged?()
        // The namer looks once at start-up (it may have online names to refine), then only when a pin
        // has no name at all: a new or moved pin. Pins waiting for an online name are its own business.
        if !hasPokedNamer || names.someUnnamed, let namer {
            hasPokedNamer = true
            Task { await namer.pinsChanged() }
        }
    }

    /// Keeps `value` alive on a background queue for a moment, so its last reference (and the freeing) goes
    /// there once the caller has dropped its own.
    private nonisolated static func releaseLater(_ value: [Int64: String]) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(100)) { [value] in
            withExtendedLifetime(value) {}
        }
    }

    // MARK: Gestures → store

    /// Read after start-up (`Translations.setUp`), when the first pins arrive.
    static let hint = tr("Press and hold anywhere on the map to drop a pin.")

    private func drop(latitude: Double, longitude: Double) -> PinMark {
        if notification.isShown && notification.message == Self.hint { notification.dismiss() } // learnt
        let placeholder = nextPlaceholderKey
        nextPlaceholderKey -= 1
        dropPlaces[placeholder] = (latitude, longitude)
        logger.debug("Dropping a pin at \(latitude), \(longitude)")
        let ticket = writer.insert(latitude: latitude, longitude: longitude) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let pin):
                guard let id = pin.id else { return }
                self.tickets[id] = self.tickets[placeholder]
                if let place = self.dropPlaces.removeValue(forKey: placeholder) { self.dropPlaces[id] = place }
                self.layer.rekey(from: placeholder, to: id)
                // The search starts while the pin is still held; releasing it close by keeps it.
                self.albums.ensureAlbum(ofNewPin: pin)
            case .failure(let error):
                self.tickets.removeValue(forKey: placeholder)
                self.dropPlaces.removeValue(forKey: placeholder)
                self.layer.forget(placeholder)
                // Translators: %@ says why, e.g. "The disk is full."
                self.report(tr("The pin could not be saved. %@"), logged: "The pin could not be saved.", error)
            }
        }
        tickets[placeholder] = ticket
        return PinMark(key: placeholder, latitude: latitude, longitude: longitude)
    }

    /// Drops a pin with no gesture (a search result's "Drop Pin Here"), and fetches its album as a drop does.
    func dropPin(latitude: Double, longitude: Double) {
        if notification.isShown && notification.message == Self.hint { notification.dismiss() }
        _ = writer.insert(latitude: latitude, longitude: longitude) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let pin):
                self.albums.ensureAlbum(ofNewPin: pin)
            case .failure(let error):
                // Translators: %@ says why, e.g. "The disk is full."
                self.report(tr("The pin could not be saved. %@"), logged: "The pin could not be saved.", error)
            }
        }
    }

    func dragEnded(_ mark: PinMark) {
        // A placeholder's ticket stays under its placeholder key too: the drag may outlive the insert.
        guard let ticket = tickets[mark.key] ?? (mark.key > 0 ? PinTicket(id: mark.key) : nil) else { return }
        layer.showAhead(mark)
        let dropPlace = dropPlaces.removeValue(forKey: mark.key) ?? dropPlaces.removeValue(forKey: layer.resolved(mark).key)
        // A pin moved meaningfully forgets the photos of its old place (in the same write; a nudge
        // keeps them), and the album service, watching the store, stops the old place's downloads.
        writer.move(ticket, latitude: mark.latitude, longitude: mark.longitude,
                    clearingAlbum: true) { [weak self] result in
            switch result {
            case .success(let id):
                // A new pin released close to where it dropped keeps the search its drop started
                // (even a failed one: opening the album tries again); otherwise, prefetch now.
                if let dropPlace, AlbumPlace.isSame(dropPlace, (mark.latitude, mark.longitude)) { return }
                self?.albums.ensureAlbum(ofPin: id)
            case .failure(let error):
                guard let self else { return }
                // Back to where the store has it (under its stored id, if its insert finished since).
                self.layer.forget(self.layer.resolved(mark).key)
                // Translators: %@ says why, e.g. "The disk is full."
                self.report(tr("The pin's new place could not be saved. %@"), logged: "The pin's new place could not be saved.",
                            error)
            }
        }
    }

    /// `mark` under its stored key, or nil while it is still being saved (a dropped pin's mark has a
    /// placeholder key until its row is written).
    private func saved(_ mark: PinMark) -> PinMark? {
        let mark = layer.resolved(mark)
        return mark.key > 0 ? mark : nil
    }

    private func activate(_ mark: PinMark) {
        if let mark = saved(mark) { onOpen?(mark) }
    }

    private func hovered(_ mark: PinMark) {
        if let mark = saved(mark) { onHover?(mark) }
    }

    private func showMenu(for mark: PinMark, event: UnsafeMutablePointer<GdkEvent>) {
        if let mark = saved(mark) { menu.popup(for: mark, event: event) }
    }

    // MARK: Delete and undo

    func delete(_ mark: PinMark) {
        guard let id = saved(mark)?.key else { return }
        layer.forget(id)
        onDeleted?(id) // the album service sees the deletion in the store and stops its downloads
        writer.perform({ store in try store.deletePinForUndo(id: id) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let deletion):
                self.pendingDeletions[id] = deletion
                let title = deletion.pin.placeName
                    ?? CoordinateFormat.string(latitude: deletion.pin.latitude, longitude: deletion.pin.longitude)
                // Translators: %@ is the pin's place name, e.g. "Montmartre, Paris, France", or its coordinates.
                self.notification.show(formatted(tr("Pin at %@ deleted"), title),
                                       actionLabel: tr("Undo"), seconds: 7,
                                       action: { [weak self] in self?.undo(id) },
                                       onDismiss: { [weak self] in self?.finishDeletion(id) })
            case .failure(let error):
                // Translators: %@ says why, e.g. "The disk is full."
                self.report(tr("The pin could not be deleted. %@"), logged: "The pin could not be deleted.", error)
            }
        }
    }

    private func undo(_ id: Int64) {
        guard let deletion = pendingDeletions.removeValue(forKey: id) else { return }
        writer.perform({ store in try store.undoPinDeletion(deletion) }) { [weak self] result in
            guard case .failure(let error) = result else { return }
            // Translators: %@ says why, e.g. "The disk is full."
            self?.report(tr("The pin could not be restored. %@"), logged: "The pin could not be restored.", error)
        }
    }

    private func finishDeletion(_ id: Int64) {
        guard let deletion = pendingDeletions.removeValue(forKey: id) else { return }
        writer.perform({ store in try store.finishPinDeletion(deletion) }) { [weak self] result in
            if case .failure(let error) = result {
                self?.logger.error("Could not remove a deleted pin's photos: \(error.localizedDescription)")
            }
        }
    }

    /// `message`: what the person reads, translated, with `%@` for the reason; `logged`: the log's English.
    private func report(_ message: String, logged: String, _ error: Error) {
        logger.error("\(logged) \(error.localizedDescription)")
        notification.show(formatted(message, error.localizedDescription))
    }
}

/// The secondary-click menu of a pin.
@MainActor
final class PinMenu {
    private let menu: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private var target: PinMark?
    var onOpen: ((PinMark) -> Void)?
    var onDelete: ((PinMark) -> Void)?

    /// The menu is attached to `widget`, and destroyed with it.
    init(attachedTo widget: UnsafeMutablePointer<GtkWidget>) {
        menu = gtk_menu_new()
        lifetime = WidgetLifetime(menu)
        let open = gtk_menu_item_new_with_mnemonic(tr("_Open Album"))!
        let delete = gtk_menu_item_new_with_mnemonic(tr("_Delete Pin"))!
        gtk_menu_shell_append(menu.cast(), open)
        gtk_menu_shell_append(menu.cast(), delete)
        gtk_widget_show_all(menu)
        open.connect(.activate) { [weak self] in
            if let self, let target = self.target { self.onOpen?(target) }
        }
        delete.connect(.activate) { [weak self] in
            if let self, let target = self.target { self.onDelete?(target) }
        }
        gtk_menu_attach_to_widget(menu.cast(), widget, nil)
        lifetime.destroy(with: widget)
    }

    func popup(for mark: PinMark, event: UnsafeMutablePointer<GdkEvent>) {
        guard lifetime.isAlive else { return }
        target = mark
        gtk_menu_popup_at_pointer(menu.cast(), event)
    }
}

/// Every pin's place name, and whether some pin has none yet; built off the main thread.
struct PinNames: Equatable, Sendable {
    var names: [Int64: String] = [:]
    var someUnnamed = false

    init(_ pins: [PinNaming]) {
        names.reserveCapacity(pins.count)
        for pin in pins {
            if let name = pin.placeName { names[pin.id] = name }
            if pin.source == nil { someUnnamed = true }
        }
    }
}

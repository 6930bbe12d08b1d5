import CGtk
import Foundation
import GLibSwift
import Layouts
import TouristStore
import Translations

/// "My Places" (F9): the pins beside the map, the keyboard's way to every pin; at most `PlaceListQuery.limit`
/// rows, read on a database thread, so the main thread's work does not grow with the library.
@MainActor
final class PlacesSidebar {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let list: UnsafeMutablePointer<GtkWidget>
    private let footer: UnsafeMutablePointer<GtkWidget>
    private let order: UnsafeMutablePointer<GtkWidget>
    private let empty: UnsafeMutablePointer<GtkWidget>
    private let store: AppDatabase
    private var observation: StoreObservation?
    private var query = PlaceListQuery()
    private var shown: [PlaceSummary] = []
    /// Row images waiting for a thumbnail, by photo path (replaced with the rows).
    private var waitingImages: [String: [UnsafeMutablePointer<GtkWidget>]] = [:]
    /// Decoded thumbnails by photo path; cleared when it grows past a few pages.
    private var thumbnails: [String: DecodedPixbuf] = [:]
    private var decoding: Set<String> = []
    /// Set while rows are rebuilt, so re-selecting the same place does not move the map.
    private var rebuilding = false
    /// Opened before its rows arrived: the first row takes the keyboard.
    private var wantsFocus = false
    private var ownPhotoObserver: Int?
    /// The user's own photos near each place shown, as last counted (none while they are off).
    private var ownCounts: [Int64: Int] = [:]
    private var counting: Task<Void, Never>?
    /// A scan tells of every batch: counted again once it pauses.
    private let recount = Debouncer(milliseconds: 500)
    /// Each place's row and its detail label, so new counts change a row in place.
    private var rowParts: [Int64: (row: UnsafeMutablePointer<GtkWidget>, detail: UnsafeMutablePointer<GtkWidget>)] = [:]

    static let thumbnailSide: Int32 = 48

    var onSelect: ((PlaceSummary) -> Void)?
    var onOpen: ((PlaceSummary) -> Void)?
    var onDelete: ((PlaceSummary) -> Void)?
    /// The name shown for a place without one yet.
    var untitled: (PlaceSummary) -> String = { CoordinateFormat.string(latitude: $0.latitude, longitude: $0.longitude) }
    /// The user's own photos: each row says how many are near its place.
    var ownPhotos: OwnPhotoLibrary? {
        didSet {
            if let ownPhotoObserver { oldValue?.stopObserving(ownPhotoObserver) }
            ownPhotoObserver = ownPhotos?.observe { [weak self] in
                guard let self, self.isOpen else { return }
                self.recount.schedule { [weak self] in self?.countOwnPhotos() }
            }
            if isOpen { countOwnPhotos() }
        }
    }

    init(store: AppDatabase) {
        self.store = store
        // The layout is data/ui/places-sidebar.ui; the rows are made here, one per place.
        let layout = Layouts.builder("places-sidebar")
        root = layout.object("places-sidebar")
        lifetime = WidgetLifetime(root)
        order = layout.object("place-order")
        list = layout.object("places-list")
        empty = layout.object("no-places")
        footer = layout.object("places-footer")

        order.connect(.changed) { [weak self] in
            guard let self else { return }
            let id = gtk_combo_box_get_active_id(self.order.cast()).map { String(cString: $0) }
            self.query.order = id == "name" ? .name : .newestFirst
            self.observe()
        }
        list.connect(.rowSelected) { [weak self] row in
            guard let self, !self.rebuilding, let place = self.place(of: row) else { return }
            self.onSelect?(place)
        }
        list.connect(.rowActivated) { [weak self] row in
            guard let self, let place = self.place(of: row) else { return }
            self.onOpen?(place)
        }
        list.connect(.keyPress) { [weak self] event in
            guard let self, Int32(event.pointee.key.keyval) == GDK_KEY_Delete
                    || Int32(event.pointee.key.keyval) == GDK_KEY_KP_Delete,
                  let row = gtk_list_box_get_selected_row(self.list.cast()),
                  let place = self.place(of: UnsafeMutableRawPointer(row)) else { return false }
            self.onDelete?(place)
            return true
        }
        lifetime.onDestroy { [weak self] in
            guard let self else { return }
            self.observation?.cancel()
            self.observation = nil
            if let observer = self.ownPhotoObserver { self.ownPhotos?.stopObserving(observer) }
            self.counting?.cancel()
            self.recount.cancel()
        }
    }

    var isOpen: Bool { lifetime.isAlive && gtk_revealer_get_reveal_child(root.cast()) != 0 }

    /// Whether the keyboard is in the list.
    var hasFocus: Bool {
        guard lifetime.isAlive, let window = gtk_widget_get_toplevel(root),
              let focus = gtk_window_get_focus(window.cast()) else { return false }
        return focus == list || gtk_widget_is_ancestor(focus, list) != 0
    }

    /// Shows the list (watching the store only while it is shown) and gives it the keyboard.
    func open() {
        guard lifetime.isAlive else { return }
        if !isOpen {
            gtk_revealer_set_reveal_child(root.cast(), 1)
            observe()
        }
        focusList()
    }

    /// The keyboard goes to the selected row, else the first (selecting it); with no rows yet, to the
    /// first row that arrives.
    private func focusList() {
        guard let row = gtk_list_box_get_selected_row(list.cast()) ?? gtk_list_box_get_row_at_index(list.cast(), 0) else {
            wantsFocus = true
            return
        }
        wantsFocus = false
        gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        // Shown selected, so Enter and Delete have a target, but opening the list does not move the map.
        if gtk_list_box_get_selected_row(list.cast()) == nil {
            let wasRebuilding = rebuilding
            rebuilding = true
            gtk_list_box_select_row(list.cast(), row)
            rebuilding = wasRebuilding
        }
    }

    func close() {
        guard isOpen else { return }
        gtk_revealer_set_reveal_child(root.cast(), 0)
        observation?.cancel()
        observation = nil
    }

    /// The search text: places whose names contain every word.
    func filter(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text != query.filter else { return }
        query.filter = text
        if isOpen { observe() }
    }

    private func observe() {
        observation?.cancel()
        observation = store.observePlaces(query, onError: { [weak self] error in
            guard let self, self.lifetime.isAlive else { return }
            // Translators: %@ says why, e.g. "The disk is full."
            gtk_label_set_text(self.footer.cast(), formatted(tr("Your places could not be read. %@"), error.localizedDescription))
        }, onChange: { [weak self] places in
            self?.show(places)
        })
    }

    // MARK: Rows

    private func show(_ page: PlaceList) {
        guard lifetime.isAlive else { return }
        let selectedRow = gtk_list_box_get_selected_row(list.cast())
        let selected = selectedRow.flatMap { place(of: UnsafeMutableRawPointer($0))?.id }
        let selectedIndex = selectedRow.map { Int(gtk_list_box_row_get_index($0)) }
        let hadFocus = gtk_widget_has_focus(list) != 0
            || gtk_list_box_get_selected_row(list.cast()).map { gtk_widget_has_focus(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) != 0 } == true
        rebuilding = true
        defer { rebuilding = false }
        shown = page.places
        waitingImages = [:]
        rowParts = [:]
        Widgets.destroyChildren(list)
        let scale = gtk_widget_get_scale_factor(list)
        for place in page.places {
            gtk_container_add(list.container, row(for: place, scale: scale))
        }
        // The same place stays selected; if it went (deleted), the one now in its position, so Delete
        // can go down a list.
        let index = selected.flatMap { id in page.places.firstIndex { $0.id == id } }
            ?? selectedIndex.map { min($0, page.places.count - 1) }
        if let index, index >= 0, let row = gtk_list_box_get_row_at_index(list.cast(), Int32(index)) {
            gtk_list_box_select_row(list.cast(), row)
            if hadFocus { gtk_widget_grab_focus(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self)) }
        }
        rebuilding = false
        if wantsFocus { focusList() }
        if !query.filter.isEmpty && page.matching == 0 {
            // Translators: %@ is the text typed in the search, which no place's name contains.
            gtk_label_set_text(empty.cast(), formatted(tr("No place is called “%@”."), query.filter))
        } else {
            gtk_label_set_text(empty.cast(), tr("No places yet.\nPress and hold on the map to drop a pin."))
        }
        let footerText: String
        if page.matching > page.places.count {
            // Translators: the list shows only the first places; %1$@ is how many it shows, %2$@ how many there are
            // (the plural follows it), e.g. "Showing 200 of 1,234 places. Search to find the others."
            footerText = formatted(trn("Showing %1$@ of %2$@ place. Search to find the others.",
                                            "Showing %1$@ of %2$@ places. Search to find the others.", page.matching), Self.number(page.places.count), Self.number(page.matching))
        } else if !query.filter.isEmpty {
            // Translators: %1$@ places of %2$@ (the plural follows it) have names containing %3$@, the text searched for,
            // e.g. "3 of 1,234 places match “paris”."
            footerText = formatted(trn("%1$@ of %2$@ place matches “%3$@”.", "%1$@ of %2$@ places match “%3$@”.", page.total), Self.number(page.matching), Self.number(page.total), query.filter)
        } else {
            footerText = formatted(trn("%@ place", "%@ places", page.total), Self.number(page.total))
        }
        gtk_label_set_text(footer.cast(), footerText)
        if thumbnails.count > 4 * query.limit { thumbnails = [:] }
        countOwnPhotos()
    }

    private func row(for place: PlaceSummary, scale: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10)!
        Widgets.setMargins(box, 6)
        let image = gtk_image_new_from_icon_name("mark-location-symbolic", GTK_ICON_SIZE_DND)!
        gtk_widget_set_size_request(image, Self.thumbnailSide, Self.thumbnailSide)
        if let path = place.firstPhotoPath {
            if let decoded = thumbnails[path] {
                setThumbnail(decoded, on: image, scale: scale)
            } else {
                waitingImages[path, default: []].append(image)
                decodeThumbnail(path, scale: scale)
            }
        }
        let name = place.placeName ?? untitled(place)
        let labels = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let title = gtk_label_new(name)!
        gtk_label_set_xalign(title.cast(), 0)
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_END)
        Widgets.addStyleClass(title, "heading")
        let texts = Self.texts(for: place, name: name, own: ownCounts[place.id] ?? 0)
        let detail = gtk_label_new(texts.detail)!
        gtk_label_set_xalign(detail.cast(), 0)
        Widgets.addStyleClass(detail, "dim-label")
        gtk_box_pack_start(labels.cast(), title, 0, 0, 0)
        gtk_box_pack_start(labels.cast(), detail, 0, 0, 0)
        gtk_widget_set_valign(labels, GTK_ALIGN_CENTER)
        gtk_box_pack_start(box.cast(), image, 0, 0, 0)
        gtk_box_pack_start(box.cast(), labels, 1, 1, 0)
        let row = gtk_list_box_row_new()!
        gtk_container_add(row.container, box)
        Widgets.setAccessibleName(row, texts.accessibleName)
        // Translators: %@ is the place's name.
        gtk_widget_set_tooltip_text(row, formatted(tr("%@\nEnter opens the album, Delete deletes the pin"), name))
        gtk_widget_show_all(row)
        rowParts[place.id] = (row, detail)
        return row
    }

    /// The line under a place's name and the row's name for screen readers; `own`: the user's photos near it.
    private static func texts(for place: PlaceSummary, name: String, own: Int) -> (detail: String, accessibleName: String) {
        let locale = Translations.formattingLocale
        let photoCount = number(place.photoCount)
        let added = place.createdAt.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(locale))
        guard own > 0 else {
            // Translators: under a place's name in My Places; %1$@ is its number of photos, %2$@ the date its pin was
            // dropped, e.g. "30 photos · added 12 Mar 2026".
            let detail = formatted(trn("%1$@ photo · added %2$@", "%1$@ photos · added %2$@", place.photoCount), photoCount, added)
            // Translators: a row of My Places for screen readers; %1$@ is the place's name, %2$@ its number of photos.
            let accessibleName = formatted(trn("%1$@, %2$@ photo", "%1$@, %2$@ photos", place.photoCount), name, photoCount)
            return (detail, accessibleName)
        }
        // Translators: in My Places, how many of the user's own photos were taken near a place, e.g. "3 of yours".
        let yours = formatted(trn("%@ of yours", "%@ of yours", own), number(own))
        // Translators: under a place's name in My Places; %1$@ is its number of Flickr photos, %2$@ how many of the
        // user's own are near it ("3 of yours"), %3$@ the date its pin was dropped, e.g. "12 photos · 3 of yours · added 5 Jun 2026".
        let detail = formatted(trn("%1$@ photo · %2$@ · added %3$@", "%1$@ photos · %2$@ · added %3$@", place.photoCount), photoCount, yours, added)
        // Translators: a row of My Places for screen readers; %1$@ is the place's name, %2$@ its number of Flickr
        // photos, %3$@ how many of the user's own are near it ("3 of yours"), e.g. "Paris, 12 photos, 3 of yours".
        let accessibleName = formatted(trn("%1$@, %2$@ photo, %3$@", "%1$@, %2$@ photos, %3$@", place.photoCount), name, photoCount, yours)
        return (detail, accessibleName)
    }

    // MARK: Own photos

    /// Counts the user's photos near the places shown, off the main loop; the rows change when the counts come.
    private func countOwnPhotos() {
        recount.cancel()
        counting?.cancel()
        guard let library = ownPhotos, lifetime.isAlive, !shown.isEmpty else { return }
        let places = shown.map { (id: $0.id, latitude: $0.latitude, longitude: $0.longitude) }
        let store = self.store
        counting = Task { [weak self] in
            let pins = places.map(\.id)
            let (hidden, years) = await Task.detached(priority: .userInitiated) {
                ((try? store.hiddenOwnPhotos(ofPins: pins)) ?? [:], (try? store.albumYears(ofPins: pins)) ?? [:])
            }.value
            let counts = await library.counts(near: places, hidden: hidden, years: years)
            guard let self, !Task.isCancelled, self.lifetime.isAlive else { return }
            self.showOwnCounts(counts)
        }
    }

    private func showOwnCounts(_ counts: [Int64: Int]) {
        for place in shown {
            let own = counts[place.id] ?? 0
            guard own != (ownCounts[place.id] ?? 0), let parts = rowParts[place.id] else { continue }
            let name = place.placeName ?? untitled(place)
            let texts = Self.texts(for: place, name: name, own: own)
            gtk_label_set_text(parts.detail.cast(), texts.detail)
            Widgets.setAccessibleName(parts.row, texts.accessibleName)
        }
        ownCounts = counts
    }

    /// A count as the user's locale writes it ("1,234"; "1.234" in German).
    private static func number(_ count: Int) -> String {
        count.formatted(.number.locale(Translations.formattingLocale))
    }

    private func place(of row: UnsafeMutableRawPointer?) -> PlaceSummary? {
        guard let row else { return nil }
        let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
        return shown.indices.contains(index) ? shown[index] : nil
    }

    // MARK: Thumbnails

    private func decodeThumbnail(_ path: String, scale: Int32) {
        guard decoding.insert(path).inserted else { return }
        let file = store.photoFileURL(relativePath: path).path
        let side = Self.thumbnailSide * scale
        Task { [weak self] in
            let decoded = await Task.detached(priority: .utility) {
                ImageDecoding.squareThumbnail(path: file, side: side)
            }.value
            guard let self else { return }
            self.decoding.remove(path)
            guard let decoded, self.lifetime.isAlive else { return }
            self.thumbnails[path] = decoded
            for image in self.waitingImages.removeValue(forKey: path) ?? [] {
                self.setThumbnail(decoded, on: image, scale: scale)
            }
        }
    }

    private func setThumbnail(_ decoded: DecodedPixbuf, on image: UnsafeMutablePointer<GtkWidget>, scale: Int32) {
        guard let surface = gdk_cairo_surface_create_from_pixbuf(decoded.pixbuf, scale, nil) else { return }
        gtk_image_set_from_surface(image.cast(), surface)
        cairo_surface_destroy(surface)
    }
}

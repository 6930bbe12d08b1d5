import CGtk
import Foundation
import GLibSwift
import Layouts
import Places
import Translations

/// The header bar's place search: cities suggested as you type (offline, from libgeonames), and on Enter
/// also Nominatim's addresses and landmarks (never per keystroke: its usage policy forbids it). Results
/// drop down under the entry; arrow keys move among them, Enter or a click chooses one.
@MainActor
final class PlaceSearch {
    let entry: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let finder: PlaceFinder
    private var places: [Place] = []
    private var work: Task<Void, Never>?
    /// Bumped by every new question: an answer to an older one is dropped.
    private var generation = 0
    /// The text Enter searched for, until the text changes.
    private var searched: String?

    /// A result was chosen.
    var onChoose: ((Place) -> Void)?
    /// Escape on an empty search: the map may take the keyboard back.
    var onFinished: (() -> Void)?
    /// The text changed (after a pause in the typing): My Places filters by it.
    var onTextChanged: ((String) -> Void)?

    /// Read after start-up (`Translations.setUp`), at the first suggestions.
    static let hint = tr("Press Enter to search for addresses and landmarks too")

    init(finder: PlaceFinder) {
        self.finder = finder
        // The layout is data/ui/place-search.ui; the rows are made here, one per result.
        let layout = Layouts.builder("place-search")
        entry = layout.object("search-entry")
        lifetime = WidgetLifetime(entry)
        popover = layout.object("search-results")
        list = layout.object("search-results-list")
        spinner = layout.object("search-spinner")
        status = layout.object("search-status")

        // GtkSearchEntry waits for a pause in the typing before it says the text changed.
        entry.connect(.searchChanged) { [weak self] in self?.textChanged() }
        entry.connect(.activate) { [weak self] in self?.enter() }
        entry.connect(.stopSearch) { [weak self] in self?.escape() }
        entry.connect(.keyPress) { [weak self] event in
            guard let self else { return false }
            switch Int32(event.pointee.key.keyval) {
            case GDK_KEY_Down, GDK_KEY_KP_Down: return self.moveSelection(by: 1)
            case GDK_KEY_Up, GDK_KEY_KP_Up: return self.moveSelection(by: -1)
            default: return false
            }
        }
        list.connect(.rowActivated) { [weak self] row in
            guard let self, let row else { return }
            self.choose(Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))))
        }
        lifetime.onDestroy { [weak self] in
            self?.work?.cancel()
            self?.work = nil
        }
    }

    /// Ctrl+F: the keyboard goes to the entry, its text selected so typing replaces it.
    func focus() {
        guard lifetime.isAlive else { return }
        gtk_widget_grab_focus(entry)
        if !places.isEmpty || !text.isEmpty { gtk_popover_popup(popover.cast()) }
    }

    var text: String {
        lifetime.isAlive ? String(cString: gtk_entry_get_text(entry.cast())).trimmingCharacters(in: .whitespaces) : ""
    }

    // MARK: Asking

    private func textChanged() {
        let text = self.text
        onTextChanged?(text)
        // GtkSearchEntry reports the typing's pause even after Enter was pressed: Enter's answer stays.
        guard text != searched else { return }
        searched = nil
        guard !text.isEmpty else { return reset() }
        ask(requested: false) { finder in (await finder.suggestions(for: text), nil) }
    }

    private func enter() {
        if let row = gtk_list_box_get_selected_row(list.cast()) {
            return choose(Int(gtk_list_box_row_get_index(row)))
        }
        let text = self.text
        guard !text.isEmpty else { return }
        searched = text
        setStatus(tr("Searching…"), busy: true)
        gtk_popover_popup(popover.cast())
        ask(requested: true) { finder in
            guard let results = try? await finder.search(text) else { return nil } // cancelled
            switch (results.online, results.places.isEmpty) {
            case (.answered, true), (.notAsked, true): return ([], tr("No places found"))
            case (.unavailable, false): return (results.places, tr("Online search unavailable — showing cities"))
            case (.unavailable, true):
                // Translators: %@ is what the person searched for.
                return ([], formatted(tr("Online search unavailable, and no city is called “%@”. Check your connection and try again."), text))
            case (.answered, false), (.notAsked, false): return (results.places, nil)
            }
        }
    }

    /// Runs `question` off the main thread and shows its answer, unless a newer question came meanwhile.
    /// `requested`: the person pressed Enter, so the answer shows even if the entry lost the keyboard meanwhile.
    private func ask(requested: Bool, _ question: @escaping @Sendable (PlaceFinder) async -> ([Place], String?)?) {
        work?.cancel()
        generation += 1
        let asked = generation
        let finder = self.finder
        work = Task { [weak self] in
            let answer = await question(finder)
            guard let self, self.generation == asked, let (places, message) = answer else { return }
            self.show(places, message: message, requested: requested)
        }
    }

    // MARK: Showing

    private func show(_ found: [Place], message: String?, requested: Bool) {
        // Suggestions for text the person has left are not worth a popover over the map.
        guard lifetime.isAlive, requested || gtk_widget_has_focus(entry) != 0 else { return }
        places = found
        Widgets.destroyChildren(list)
        for place in found { gtk_container_add(list.container, Self.row(for: place)) }
        gtk_widget_set_visible(list, found.isEmpty ? 0 : 1)
        setStatus(message ?? (found.isEmpty || found.allSatisfy { $0.source == .offlineCities } ? Self.hint : nil),
                  busy: false)
        gtk_popover_popup(popover.cast())
    }

    private func setStatus(_ message: String?, busy: Bool) {
        gtk_label_set_text(status.cast(), message ?? "")
        gtk_widget_set_visible(status, message == nil ? 0 : 1)
        if busy { gtk_spinner_start(spinner.cast()) } else { gtk_spinner_stop(spinner.cast()) }
        gtk_widget_set_visible(spinner, busy ? 1 : 0)
    }

    /// "Paris" in bold over "Île-de-France, France", read as one name by screen readers.
    private static func row(for place: Place) -> UnsafeMutablePointer<GtkWidget> {
        let parts = place.name.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        Widgets.setMargins(box, 6)
        let title = gtk_label_new(nil)!
        gtk_label_set_markup(title.cast(), Markup.bold(parts.first ?? place.name))
        gtk_label_set_xalign(title.cast(), 0)
        gtk_label_set_ellipsize(title.cast(), PANGO_ELLIPSIZE_END)
        gtk_box_pack_start(box.cast(), title, 0, 0, 0)
        if parts.count > 1 {
            let detail = gtk_label_new(parts[1])!
            gtk_label_set_xalign(detail.cast(), 0)
            gtk_label_set_ellipsize(detail.cast(), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(detail.cast(), 40)
            Widgets.addStyleClass(detail, "dim-label")
            gtk_box_pack_start(box.cast(), detail, 0, 0, 0)
        }
        let row = gtk_list_box_row_new()!
        gtk_container_add(row.container, box)
        Widgets.setAccessibleName(row, place.name)
        gtk_widget_show_all(row)
        return row
    }

    // MARK: Choosing

    private func moveSelection(by step: Int) -> Bool {
        guard !places.isEmpty else { return false }
        if gtk_widget_get_visible(popover) == 0 { gtk_popover_popup(popover.cast()) }
        let current = gtk_list_box_get_selected_row(list.cast()).map { Int(gtk_list_box_row_get_index($0)) }
        let next = current.map { min(max($0 + step, 0), places.count - 1) } ?? (step > 0 ? 0 : places.count - 1)
        if let row = gtk_list_box_get_row_at_index(list.cast(), Int32(next)) {
            gtk_list_box_select_row(list.cast(), row)
        }
        return true
    }

    private func choose(_ index: Int) {
        guard places.indices.contains(index) else { return }
        let place = places[index]
        gtk_popover_popdown(popover.cast())
        gtk_list_box_unselect_all(list.cast())
        onChoose?(place)
    }

    private func escape() {
        if gtk_widget_get_visible(popover) != 0 {
            gtk_popover_popdown(popover.cast())
        } else {
            onFinished?()
        }
    }

    private func reset() {
        work?.cancel()
        generation += 1
        places = []
        Widgets.destroyChildren(list)
        gtk_popover_popdown(popover.cast())
    }
}

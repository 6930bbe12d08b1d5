import CGtk
import COsmGpsMap
import Foundation
import GLibSwift
import Logging
import MapView
import StudentLocations
import Translations

/// The map of classmates: a pin per location (the user's own in blue, never in a cluster); classmates
/// whose pins would overlap are one marker with their count, which a click zooms into; clicking a pin
/// shows a popover with the student's name, place and link.
@MainActor
final class StudentMapPage {
    let mapWidget: MapWidget
    var root: UnsafeMutablePointer<GtkWidget> { mapWidget.root }
    private let lifetime: WidgetLifetime
    private let pinLayer: PinLayer
    private var gestures: PinGestures?
    private var students: [StudentInformation] = []
    private var popover: UnsafeMutablePointer<GtkWidget>?
    /// Opens a link in the browser (the window owns the parent for alerts).
    var onOpenLink: ((URL) -> Void)?

    init(tileSource: TileSource, tileCacheFolder: URL, tileFetcher: @escaping TileFetcherFactory, logger: Logger) {
        mapWidget = MapWidget(tileSource: tileSource, tileCacheFolder: tileCacheFolder,
                              userAgent: OnTheMapInfo.userAgent, fetcher: tileFetcher, logger: logger)
        lifetime = WidgetLifetime(mapWidget.map)
        // A class lives in a few cities: its pins would hide each other at any zoom that shows them all.
        pinLayer = PinLayer(map: mapWidget.map, clustering: true, logger: logger)
        mapWidget.pinLayer = pinLayer
        gestures = PinGestures(map: mapWidget.map, layer: pinLayer,
                               handlers: .init(activate: { [weak self] mark in self?.showDetails(of: mark) }))
        mapWidget.show(.world)
        lifetime.onDestroy { [weak self] in self?.popover = nil }
        gtk_widget_set_has_tooltip(mapWidget.map.widget, 1)
        mapWidget.map.widget.connect(.queryTooltip) { [weak self] x, y, keyboard, tooltip in
            guard let self, !keyboard, let cluster = self.pinLayer.cluster(atX: Double(x), y: Double(y)) else { return false }
            let count = cluster.count.formatted(.number.locale(Translations.formattingLocale))
            // Translators: the tooltip of a cluster of classmates' pins on the map; %@ is how many, e.g. "12".
            gtk_tooltip_set_text(tooltip, formatted(trn("%@ classmate — click to zoom in", "%@ classmates — click to zoom in",
                                                             cluster.count), count))
            return true
        }
    }

    /// Draws a pin per student; `mine` (the user's account key) gets the blue pin.
    func show(_ students: [StudentInformation], mine: String?) {
        self.students = students
        pinLayer.setPins(students.enumerated().map { index, student in
            // The user's own pin stays itself, so they find themselves among the clusters.
            PinMark(key: PinKey(index), latitude: student.latitude, longitude: student.longitude,
                    tint: student.uniqueKey == mine ? .blue : .red, standsApart: student.uniqueKey == mine)
        })
        closeDetails()
    }

    func centre(on student: StudentInformation) {
        mapWidget.show(MapViewport(latitude: student.latitude, longitude: student.longitude,
                                   zoom: max(mapWidget.viewport.zoom, 10)))
    }

    // MARK: The popover

    private func showDetails(of mark: PinMark) {
        guard lifetime.isAlive, students.indices.contains(Int(mark.key)) else { return }
        let student = students[Int(mark.key)]
        closeDetails()
        let popover = gtk_popover_new(mapWidget.map.widget)!
        var point = OsmGpsMapPoint(rlat: Float(mark.latitude * .pi / 180), rlon: Float(mark.longitude * .pi / 180),
                                   user_data: nil)
        var x: Int32 = 0, y: Int32 = 0
        osm_gps_map_convert_geographic_to_screen(mapWidget.map, &point, &x, &y)
        // Points at the pin's head, so the popover never hides the pin it is about.
        var rect = GdkRectangle(x: x - 6, y: y - Int32(PinImage.height) + 4, width: 12, height: 12)
        gtk_popover_set_pointing_to(popover.cast(), &rect)
        gtk_popover_set_position(popover.cast(), GTK_POS_TOP)
        gtk_container_add(popover.container, StudentDetails.box(for: student, onOpen: { [weak self] url in
            self?.closeDetails()
            self?.onOpenLink?(url)
        }))
        Widgets.setAccessibleName(popover, student.fullName)
        self.popover = popover
        popover.connect(.closed) { [weak self] in
            if self?.popover == popover { self?.popover = nil }
            gtk_widget_destroy(popover)
        }
        gtk_popover_popup(popover.cast())
    }

    private func closeDetails() {
        guard let popover else { return }
        self.popover = nil
        gtk_popover_popdown(popover.cast())
    }
}

/// What the map's popover shows of one student: the name, the place, and the link (a button that
/// opens it, or the text and a note when it is not a web link).
@MainActor
enum StudentDetails {
    /// A name of up to 200 characters (PlainText's cap) wraps, as wide as the link, rather than widening the popover.
    private static func wrapWithinPopover(_ label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_line_wrap(label.cast(), 1)
        gtk_label_set_line_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(label.cast(), 40)
    }

    static func box(for student: StudentInformation, onOpen: @escaping @MainActor (URL) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        Widgets.setMargins(box, 12)
        let name = gtk_label_new(student.fullName)!
        Widgets.addStyleClass(name, "student-name")
        gtk_label_set_xalign(name.cast(), 0)
        gtk_label_set_selectable(name.cast(), 0)
        wrapWithinPopover(name)
        gtk_container_add(box.container, name)
        if !student.mapString.isEmpty {
            let place = gtk_label_new(student.mapString)!
            Widgets.addStyleClass(place, "dim-label")
            gtk_label_set_xalign(place.cast(), 0)
            wrapWithinPopover(place)
            gtk_container_add(box.container, place)
        }
        if let url = student.link {
            let button = gtk_button_new_with_label(url.absoluteString)!
            Widgets.addStyleClass(button, "link")
            gtk_button_set_relief(button.cast(), GTK_RELIEF_NONE)
            gtk_widget_set_tooltip_text(button, tr("Open in your browser"))
            if let label = gtk_bin_get_child(button.cast()) {
                gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_MIDDLE)
                gtk_label_set_max_width_chars(label.cast(), 40)
            }
            gtk_widget_set_halign(button, GTK_ALIGN_START)
            button.connect(.clicked) { onOpen(url) }
            gtk_container_add(box.container, button)
        } else if !student.mediaURL.isEmpty {
            let text = gtk_label_new(student.mediaURL)!
            gtk_label_set_selectable(text.cast(), 1)
            gtk_label_set_xalign(text.cast(), 0)
            gtk_label_set_ellipsize(text.cast(), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(text.cast(), 40)
            let note = gtk_label_new(tr("Not a web link, so it can't be opened"))!
            Widgets.addStyleClass(note, "dim-label")
            gtk_label_set_xalign(note.cast(), 0)
            gtk_container_add(box.container, text)
            gtk_container_add(box.container, note)
        }
        gtk_widget_show_all(box)
        return box
    }
}

import CGtk
import Foundation
import GLibSwift
import Layouts
import StudentLocations
import Translations

/// The list of classmates, newest first: initials, name, place, how long ago, and the link.
/// Activating a row (click or Enter) opens its link; a link that is not http(s) is shown with a note.
@MainActor
final class StudentListPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let list: UnsafeMutablePointer<GtkWidget>
    private let stack: UnsafeMutablePointer<GtkWidget>
    private var students: [StudentInformation] = []
    var onOpenLink: ((URL) -> Void)?
    var onNotAWebLink: ((StudentInformation) -> Void)?

    init() {
        let layout = Layouts.builder("student-list-page")
        stack = layout.object("stack")
        root = stack
        lifetime = WidgetLifetime(stack)
        list = layout.object("list")

        list.connect(.rowActivated) { [weak self] row in
            guard let self, let row else { return }
            let index = Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))
            self.activate(index)
        }
    }

    /// Rebuilds the rows (at most the 100 the directory downloads).
    func show(_ students: [StudentInformation], mine: String?, now: Date = Date()) {
        guard lifetime.isAlive else { return }
        self.students = students
        Widgets.destroyChildren(list)
        for student in students {
            gtk_container_add(list.container, Self.row(for: student, isMine: student.uniqueKey == mine, now: now))
        }
        gtk_stack_set_visible_child_name(stack.cast(), students.isEmpty ? "empty" : "list")
    }

    private func activate(_ index: Int) {
        guard students.indices.contains(index) else { return }
        let student = students[index]
        if let url = student.link { onOpenLink?(url) } else { onNotAWebLink?(student) }
    }

    private static func row(for student: StudentInformation, isMine: Bool, now: Date) -> UnsafeMutablePointer<GtkWidget> {
        let row = gtk_list_box_row_new()!
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        Widgets.setMargins(box, 10)
        let avatar = gtk_label_new(student.initials)!
        Widgets.addStyleClass(avatar, "avatar")
        Widgets.addStyleClass(avatar, isMine ? "avatar-mine" : "avatar-\(Self.colourIndex(student.fullName))")
        gtk_widget_set_valign(avatar, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(avatar, 40, 40)

        let text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        // Translators: %@ is the user's own name, marking their row in the list of students.
        let shownName = isMine ? formatted(tr("%@ (you)"), student.fullName) : student.fullName
        let name = gtk_label_new(shownName)!
        Widgets.addStyleClass(name, "student-name")
        let updated = RelativeTime.describe(student.updatedAt, now: now)
        let placeText: String
        if student.mapString.isEmpty {
            // Translators: %@ says when a student posted, e.g. "5 minutes ago", "yesterday" or "on 3 Mar 2026".
            placeText = formatted(tr("Updated %@"), updated)
        } else {
            // Translators: %1$@ is a student's place, e.g. "Paris"; %2$@ when they posted it, e.g. "5 minutes ago",
            // "yesterday" or "on 3 Mar 2026".
            placeText = formatted(tr("%1$@ · updated %2$@"), student.mapString, updated)
        }
        let place = gtk_label_new(placeText)!
        Widgets.addStyleClass(place, "dim-label")
        let linkText: String
        if let url = student.link {
            linkText = url.absoluteString
        } else if student.mediaURL.isEmpty {
            linkText = tr("No link shared")
        } else {
            // Translators: %@ is the text a student shared as their link, e.g. "example.com".
            linkText = formatted(tr("%@ — not a web link"), student.mediaURL)
        }
        let link = gtk_label_new(linkText)!
        Widgets.addStyleClass(link, student.link == nil ? "dim-label" : "student-link")
        // The theme's link colour (`*:link`), which it makes readable in its light and dark styles alike.
        if student.link != nil { gtk_widget_set_state_flags(link, GTK_STATE_FLAG_LINK, 0) }
        for label in [name, place, link] {
            gtk_label_set_xalign(label.cast(), 0)
            gtk_label_set_ellipsize(label.cast(), PANGO_ELLIPSIZE_END)
            gtk_container_add(text.container, label)
        }
        gtk_box_pack_start(box.cast(), avatar, 0, 0, 0)
        gtk_box_pack_start(box.cast(), text, 1, 1, 0)
        if student.link != nil {
            let open = gtk_image_new_from_icon_name("go-next-symbolic", GTK_ICON_SIZE_BUTTON)!
            Widgets.addStyleClass(open, "dim-label")
            gtk_box_pack_end(box.cast(), open, 0, 0, 0)
        }
        gtk_container_add(row.container, box)
        var spoken = [shownName]
        if !student.mapString.isEmpty { spoken.append(student.mapString) }
        spoken.append(linkText)
        // Translators: spoken by screen readers; %@ says when a student posted, e.g. "5 minutes ago" or "yesterday".
        spoken.append(formatted(tr("updated %@"), updated))
        Widgets.setAccessibleName(row, spoken.joined(separator: ", "))
        let tooltip: String
        if student.link == nil {
            tooltip = tr("This link can't be opened")
        } else {
            // Translators: %@ is a web link, e.g. "https://github.com/ada".
            tooltip = formatted(tr("Open %@"), linkText)
        }
        gtk_widget_set_tooltip_text(row, tooltip)
        gtk_widget_show_all(row)
        return row
    }

    /// One of six avatar colours, stable for a name (FNV-1a; Swift's Hasher changes per run).
    static func colourIndex(_ name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 6)
    }
}

/// "just now", "5 minutes ago", "yesterday", "3 days ago", then the date, in the user's language.
/// ngettext rather than Foundation's `Date.RelativeFormatStyle`: the wording and the steps stay the app's own
/// ("just now" under a minute, the date after 30 days), and the time is measured from the `now` given.
enum RelativeTime {
    static func describe(_ date: Date, now: Date) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return tr("just now") }
        let minutes = Int(seconds / 60)
        if minutes < 60 { return trn("%d minute ago", "%d minutes ago", count: minutes) }
        let hours = minutes / 60
        if hours < 24 { return trn("%d hour ago", "%d hours ago", count: hours) }
        let days = hours / 24
        if days == 1 { return tr("yesterday") }
        if days < 30 { return trn("%d day ago", "%d days ago", count: days) }
        let day = date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(Translations.formattingLocale))
        // Translators: %@ is a date, e.g. "3 Mar 2026"; shown after "Updated" and "updated".
        return formatted(tr("on %@"), day)
    }
}

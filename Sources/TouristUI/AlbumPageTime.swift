import CGtk
import Foundation
import GLibSwift
import Translations

/// The times an album can show: any time, a decade (1970s to now), or one year of it. Ids are what the
/// combo boxes hold: "any", "1990s", "2015"; no GTK.
struct AlbumTimes {
    /// The year it is now, which ends the last decade.
    let currentYear: Int
    static let firstDecade = 1970

    init(currentYear: Int = Calendar(identifier: .gregorian).component(.year, from: Date())) {
        self.currentYear = currentYear
    }

    /// The decades offered, newest first.
    var decades: [Int] {
        Array(stride(from: currentYear - currentYear % 10, through: Self.firstDecade, by: -10))
    }

    /// The years of `decade` up to this one, newest first.
    func years(of decade: Int) -> [Int] {
        Array((decade...min(decade + 9, currentYear)).reversed())
    }

    static func decadeLabel(_ decade: Int) -> String {
        // Translators: a decade in the album's choice of times; %@ is its first year, e.g. "2010s" (German "2010er").
        formatted(tr("%@s"), String(decade)) // a year, written without the grouping a count gets
    }

    /// The decade and year the combo boxes show for `years` (nil, nil: any time).
    static func choice(for years: ClosedRange<Int>?) -> (decade: Int?, year: Int?) {
        guard let years else { return (nil, nil) }
        let decade = years.lowerBound - years.lowerBound % 10
        if years.count == 1 { return (decade, years.lowerBound) }
        return years == decade...(decade + 9) ? (decade, nil) : (nil, nil)
    }

    /// The years to search for a decade and year chosen.
    static func years(decade: Int?, year: Int?) -> ClosedRange<Int>? {
        if let year { return year...year }
        return decade.map { $0...($0 + 9) }
    }
}

/// The album's time in its bar: a decade (or any time), and once a decade is chosen, a year of it. Tells the
/// years chosen by a person; shows the album's own time as it changes without telling.
@MainActor
final class AlbumTimeChooser {
    private let decadeBox: UnsafeMutablePointer<GtkWidget>
    private let yearBox: UnsafeMutablePointer<GtkWidget>
    private let times: AlbumTimes
    /// Set while the boxes are brought in line with the album, so that is not taken for a choice.
    private var isShowing = false
    /// The years chosen (nil: any time).
    var onChoose: ((ClosedRange<Int>?) -> Void)?

    init(decadeBox: UnsafeMutablePointer<GtkWidget>, yearBox: UnsafeMutablePointer<GtkWidget>,
         times: AlbumTimes = AlbumTimes()) {
        self.decadeBox = decadeBox
        self.yearBox = yearBox
        self.times = times
        // Translators: the album's photos may have been taken at any time (the first of the decades to choose).
        gtk_combo_box_text_append(decadeBox.cast(), "any", tr("Any time"))
        for decade in times.decades {
            gtk_combo_box_text_append(decadeBox.cast(), "\(decade)s", AlbumTimes.decadeLabel(decade))
        }
        gtk_combo_box_set_active_id(decadeBox.cast(), "any")
        decadeBox.connect(.changed) { [weak self] in self?.decadeChanged() }
        yearBox.connect(.changed) { [weak self] in self?.yearChanged() }
    }

    /// The decade chosen, nil for any time.
    private var decade: Int? {
        guard let id = gtk_combo_box_get_active_id(decadeBox.cast()).map({ String(cString: $0) }) else { return nil }
        return Int(id.dropLast())
    }

    private var year: Int? {
        gtk_combo_box_get_active_id(yearBox.cast()).flatMap { Int(String(cString: $0)) }
    }

    /// Shows `years` (the album's time) without telling `onChoose`.
    func show(_ years: ClosedRange<Int>?) {
        let (decade, year) = AlbumTimes.choice(for: years)
        isShowing = true
        defer { isShowing = false }
        gtk_combo_box_set_active_id(decadeBox.cast(), decade.map { "\($0)s" } ?? "any")
        fillYears(of: decade)
        gtk_combo_box_set_active_id(yearBox.cast(), year.map(String.init) ?? "all")
    }

    private func fillYears(of decade: Int?) {
        gtk_combo_box_text_remove_all(yearBox.cast())
        guard let decade else { return gtk_widget_hide(yearBox) }
        // Translators: the first choice of years within a decade chosen: all of its years.
        gtk_combo_box_text_append(yearBox.cast(), "all", tr("Any year"))
        for year in times.years(of: decade) {
            gtk_combo_box_text_append(yearBox.cast(), String(year), String(year))
        }
        gtk_combo_box_set_active_id(yearBox.cast(), "all")
        gtk_widget_show(yearBox)
    }

    private func decadeChanged() {
        guard !isShowing else { return }
        let decade = self.decade
        isShowing = true
        fillYears(of: decade)
        isShowing = false
        onChoose?(AlbumTimes.years(decade: decade, year: nil))
    }

    private func yearChanged() {
        guard !isShowing else { return }
        onChoose?(AlbumTimes.years(decade: decade, year: year))
    }
}

import CGtk
import GLibSwift
import Translations

/// The About dialog, with the credits the map data and photo terms ask for.
@MainActor
enum AboutDialog {
    static func present(over parent: UnsafeMutablePointer<GtkWidget>?) {
        let dialog = gtk_about_dialog_new()!
        let about: UnsafeMutablePointer<GtkAboutDialog> = dialog.cast()
        gtk_about_dialog_set_program_name(about, AppInfo.name)
        gtk_about_dialog_set_version(about, AppInfo.version)
        gtk_about_dialog_set_logo_icon_name(about, AppInfo.id)
        gtk_about_dialog_set_comments(about, tr("Drop pins on a world map and see the photos people took there.\n\nThis product uses the Flickr API but is not endorsed or certified by SmugMug, Inc."))
        gtk_about_dialog_set_website(about, AppInfo.website)
        gtk_about_dialog_set_website_label(about, tr("Website"))
        gtk_about_dialog_set_license_type(about, GTK_LICENSE_GPL_3_0)
        gtk_about_dialog_set_copyright(about, tr("© 2026 The Virtual Tourist developers"))
        withCStringArray([tr("The Virtual Tourist developers")]) { gtk_about_dialog_set_authors(about, $0) }
        // Translators: your names (and addresses), one per line, credited in the About window.
        let translators = tr("translator-credits")
        // Untranslated, it is the key itself: no credit to show.
        if translators != "translator-credits" { gtk_about_dialog_set_translator_credits(about, translators) }
        withCStringArray([
            // Translators: keep the web address last: the About window makes it a link.
            tr("© OpenStreetMap contributors https://www.openstreetmap.org/copyright"),
            // Translators: keep the web address last: the About window makes it a link.
            tr("Offline world map made with Natural Earth https://www.naturalearthdata.com/")
        ]) {
            gtk_about_dialog_add_credit_section(about, tr("Map data"), $0)
        }
        withCStringArray([
            // Translators: keep the web address last: the About window makes it a link.
            tr("Nominatim, © OpenStreetMap contributors https://nominatim.org/"),
            // Translators: keep the web address last: the About window makes it a link.
            tr("GeoNames cities, CC BY 4.0 https://www.geonames.org/")
        ]) {
            gtk_about_dialog_add_credit_section(about, tr("Place names"), $0)
        }
        withCStringArray([
            // Translators: keep the web address last: the About window makes it a link.
            tr("The photographers who share their work on Flickr https://www.flickr.com/")
        ]) {
            gtk_about_dialog_add_credit_section(about, tr("Photos"), $0)
        }
        if let parent {
            gtk_window_set_transient_for(dialog.cast(), parent.cast())
            gtk_window_set_modal(dialog.cast(), 1)
        }
        dialog.connect(.response) { _ in gtk_widget_destroy(dialog) }
        gtk_widget_show(dialog)
    }
}

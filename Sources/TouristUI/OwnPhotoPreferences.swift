import CGtk
import Foundation
import GLibSwift
import Layouts
import Translations

/// Preferences' "Your Photos" section: the switch, the folders looked in and what the index holds, live while the
/// dialog is open. Changes apply at once (the dialog's Save is the Flickr key's).
@MainActor
final class OwnPhotoPreferences {
    private let library: OwnPhotoLibrary
    private let dialog: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let toggle: UnsafeMutablePointer<GtkWidget>
    private let folderList: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    private let errorLabel: UnsafeMutablePointer<GtkWidget>
    private var observer: Int?
    /// The folder rows as last built, so a scan's progress does not rebuild them (and take a Remove button's focus).
    private var shownFolders: [String]?

    /// Fills the section of `layout` (the preferences dialog's) and keeps itself until the dialog is destroyed.
    init(layout: Builder, library: OwnPhotoLibrary) {
        self.library = library
        dialog = layout.object("dialog")
        lifetime = WidgetLifetime(dialog)
        toggle = layout.object("own-photos-switch")
        folderList = layout.object("own-photo-folders")
        status = layout.object("own-photos-status")
        errorLabel = layout.object("error-label")
        let addButton = layout.object("add-folder-button", as: GtkWidget.self)

        update()
        toggle.connect(.notifyActive) { [weak self] _ in self?.switchChanged() }
        addButton.connect(.clicked) { [weak self] in self?.chooseFolder() }
        observer = library.observe { [weak self] in self?.update() }
        lifetime.onDestroy { [weak self] in
            if let self, let observer = self.observer { self.library.stopObserving(observer) }
        }
        lifetime.keep(self)
    }

    private func update() {
        guard lifetime.isAlive else { return }
        if (gtk_switch_get_active(toggle.cast()) != 0) != library.isEnabled {
            gtk_switch_set_active(toggle.cast(), library.isEnabled.gboolean)
        }
        let folders = library.settings.folders
        if folders != shownFolders {
            shownFolders = folders
            showFolders(folders)
        }
        var lines: [String] = []
        if library.isEnabled, let report = library.report { lines.append(report.summary) }
        if library.isScanning { lines.append(tr("Looking for photos…")) }
        gtk_label_set_text(status.cast(), lines.joined(separator: "\n"))
    }

    // MARK: Changes

    private func switchChanged() {
        let wanted = gtk_switch_get_active(toggle.cast()) != 0
        guard wanted != library.isEnabled else { return }
        apply { wanted ? try $0.turnOn() : try $0.turnOff() }
    }

    private func chooseFolder() {
        let title = tr("Add a Folder of Your Photos")
        // Translators: the file chooser's button that adds the chosen folder; the underscore marks the access key.
        let accept = tr("_Add")
        NativeFileChooser.ask(.selectFolder, title: title, acceptLabel: accept, over: dialog,
                              folder: URL(fileURLWithPath: Self.homeFolder, isDirectory: true)) { [weak self] choice in
            guard let self, let choice, self.lifetime.isAlive else { return }
            // The Pictures folder, looked in while none is chosen, stays when the first folder is added.
            var folders = self.library.settings.folders
            if folders.isEmpty, let pictures = self.library.picturesFolder { folders.append(pictures.path) }
            let chosen = choice.url.standardizedFileURL.path
            guard !folders.contains(chosen) else { return }
            self.apply { try $0.setFolders(folders + [chosen]) }
        }
    }

    private func remove(_ folder: String) {
        apply { [library] in try $0.setFolders(library.settings.folders.filter { $0 != folder }) }
    }

    /// A failure shows in the dialog's error label; the switch and list then show what holds.
    private func apply(_ change: (OwnPhotoLibrary) throws -> Void) {
        do {
            try change(library)
            gtk_label_set_text(errorLabel.cast(), "")
        } catch {
            gtk_label_set_text(errorLabel.cast(), error.localizedDescription)
        }
        update()
    }

    // MARK: Folder rows

    private func showFolders(_ chosen: [String]) {
        Widgets.destroyChildren(folderList)
        if chosen.isEmpty {
            if let pictures = library.picturesFolder {
                // Translators: beside the Pictures folder in Preferences' list of folders, looked in while none is chosen.
                add(row(folder: pictures.path, note: tr("Default")))
            } else {
                add(row(folder: nil, note: tr("No Pictures folder found: add a folder.")))
            }
        } else {
            for folder in chosen { add(row(folder: folder, note: nil)) }
        }
    }

    private func add(_ row: UnsafeMutablePointer<GtkWidget>) {
        gtk_container_add(folderList.container, row)
        gtk_widget_show_all(row)
    }

    /// A folder (nil: only the note), its note, and a Remove button for a folder the user chose.
    private func row(folder: String?, note: String?) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        Widgets.setMargins(box, 6)
        gtk_widget_set_margin_start(box, 12)
        if let folder {
            let path = gtk_label_new(Self.shortened(folder))!
            gtk_label_set_xalign(path.cast(), 0)
            gtk_label_set_ellipsize(path.cast(), PANGO_ELLIPSIZE_MIDDLE)
            gtk_widget_set_tooltip_text(path, folder)
            gtk_box_pack_start(box.cast(), path, 1, 1, 0)
        }
        if let note {
            let label = gtk_label_new(note)!
            gtk_label_set_xalign(label.cast(), 0)
            gtk_label_set_line_wrap(label.cast(), 1)
            Widgets.addStyleClass(label, "dim-label")
            gtk_box_pack_start(box.cast(), label, folder == nil ? 1 : 0, folder == nil ? 1 : 0, 0)
        }
        if let folder, note == nil {
            let name = (folder as NSString).lastPathComponent
            // Translators: a button's name for screen readers; %@ is a folder's name, e.g. "Remove Holidays".
            let accessibleName = formatted(tr("Remove %@"), name)
            let remove = Widgets.iconButton(icon: "list-remove-symbolic", accessibleName: accessibleName,
                                            tooltip: tr("Stop looking in this folder"))
            gtk_widget_set_valign(remove, GTK_ALIGN_CENTER)
            Widgets.addStyleClass(remove, "flat")
            remove.connect(.clicked) { [weak self] in self?.remove(folder) }
            gtk_box_pack_end(box.cast(), remove, 0, 0, 0)
        }
        let row = gtk_list_box_row_new()!
        gtk_list_box_row_set_activatable(row.cast(), 0)
        gtk_container_add(row.container, box)
        return row
    }

    private static var homeFolder: String { String(cString: g_get_home_dir()) }

    /// The home folder written as ~, as file managers and shells do ("~/Pictures/Holidays").
    private static func shortened(_ folder: String) -> String {
        let home = homeFolder.hasSuffix("/") ? String(homeFolder.dropLast()) : homeFolder
        guard !home.isEmpty else { return folder }
        if folder == home { return "~" }
        return folder.hasPrefix(home + "/") ? "~" + folder.dropFirst(home.count) : folder
    }
}

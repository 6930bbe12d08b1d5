import CGtk
import Foundation

/// The desktop's file chooser through GtkFileChooserNative: the portal's under Flatpak or a portal-using desktop,
/// GTK's own dialog elsewhere. One question at a time; the answer comes back on the main loop.
@MainActor
public final class NativeFileChooser {
    public enum Purpose {
        case open
        /// Saving, with the name offered and GTK asking before it replaces a file.
        case save(suggestedName: String)
        case selectFolder
    }

    /// A choice in the chooser's type list: a name, glob patterns and MIME types.
    public struct Filter {
        public var name: String
        public var patterns: [String]
        public var mimeTypes: [String]

        public init(name: String, patterns: [String], mimeTypes: [String] = []) {
            self.name = name
            self.patterns = patterns
            self.mimeTypes = mimeTypes
        }
    }

    /// What the user chose: the file or folder, and the index of the filter shown when they did.
    public struct Choice {
        public var url: URL
        public var filterIndex: Int?
    }

    // Kept here from show to response: the chooser object is our reference, released after its answer.
    private static var shown: [ObjectIdentifier: NativeFileChooser] = [:]
    private let chooser: OpaquePointer // GtkFileChooserNative
    private var filters: [OpaquePointer] = []

    /// Shows the chooser; `answer` gets the choice, or nil when the user cancelled.
    public static func ask(_ purpose: Purpose, title: String, acceptLabel: String,
                           over parent: UnsafeMutablePointer<GtkWidget>?, filters: [Filter] = [], folder: URL? = nil,
                           answer: @escaping @MainActor (Choice?) -> Void) {
        let chooser = NativeFileChooser(purpose, title: title, acceptLabel: acceptLabel, parent: parent)
        for filter in filters { chooser.add(filter) }
        if let folder {
            let file = g_file_new_for_path(folder.path)
            gtk_file_chooser_set_current_folder_file(chooser.fileChooser, file, nil)
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        shown[ObjectIdentifier(chooser)] = chooser
        chooser.chooser.connect(.response) { [weak chooser] response in
            guard let chooser else { return }
            let choice = response == GTK_RESPONSE_ACCEPT.rawValue ? chooser.choice() : nil
            shown[ObjectIdentifier(chooser)] = nil
            answer(choice)
        }
        gtk_native_dialog_show(chooser.chooser.cast())
    }

    private init(_ purpose: Purpose, title: String, acceptLabel: String, parent: UnsafeMutablePointer<GtkWidget>?) {
        let action = switch purpose {
        case .open: GTK_FILE_CHOOSER_ACTION_OPEN
        case .save: GTK_FILE_CHOOSER_ACTION_SAVE
        case .selectFolder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        }
        chooser = gtk_file_chooser_native_new(title, parent.map { $0.cast() }, action, acceptLabel, nil)
        gtk_native_dialog_set_modal(chooser.cast(), 1)
        if case .save(let name) = purpose {
            gtk_file_chooser_set_do_overwrite_confirmation(fileChooser, 1)
            gtk_file_chooser_set_current_name(fileChooser, name)
        }
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(chooser))
    }

    private var fileChooser: OpaquePointer { chooser }

    private func add(_ filter: Filter) {
        guard let gtkFilter = gtk_file_filter_new() else { return }
        gtk_file_filter_set_name(gtkFilter, filter.name)
        for pattern in filter.patterns { gtk_file_filter_add_pattern(gtkFilter, pattern) }
        for type in filter.mimeTypes { gtk_file_filter_add_mime_type(gtkFilter, type) }
        gtk_file_chooser_add_filter(fileChooser, gtkFilter) // the chooser sinks the floating filter
        filters.append(gtkFilter)
    }

    private func choice() -> Choice? {
        guard let file = gtk_file_chooser_get_file(fileChooser) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        let shownFilter = gtk_file_chooser_get_filter(fileChooser)
        return Choice(url: URL(fileURLWithPath: String(cString: path)),
                      filterIndex: shownFilter.flatMap { shown in filters.firstIndex(of: shown) })
    }
}

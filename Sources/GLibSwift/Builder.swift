import CGtk

/// A window's or page's layout, read from a GtkBuilder file in a registered GResource. The builder owns the widgets
/// it made until the Swift object showing them takes its own reference (`WidgetLifetime`) or packs them into a
/// parent; then the builder can go.
@MainActor
public final class Builder {
    private let builder: UnsafeMutablePointer<GtkBuilder>
    private let path: String

    /// Reads `path` (e.g. "/io/github/virtualtourist/ui/album-page.ui"); `translatable` texts come from the
    /// gettext catalogue `translationDomain`.
    public init(resource path: String, translationDomain: String) {
        self.path = path
        builder = gtk_builder_new()
        gtk_builder_set_translation_domain(builder, translationDomain)
        var error: UnsafeMutablePointer<GError>?
        if gtk_builder_add_from_resource(builder, path, &error) == 0 {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "no reason given"
            // A layout missing from the app's own resource is a broken build or install, not something to recover from.
            fatalError("The window layout \(path) could not be read (\(reason)); reinstall the app.")
        }
    }

    isolated deinit {
        g_object_unref(builder)
    }

    /// The object with this `id` in the layout, as the type the caller names.
    public func object<T>(_ id: String, as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        guard let object = gtk_builder_get_object(builder, id) else {
            fatalError("The window layout \(path) has no object with id \"\(id)\".")
        }
        return UnsafeMutableRawPointer(object).assumingMemoryBound(to: T.self)
    }
}

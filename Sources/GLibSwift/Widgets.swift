import CGtk

/// Small conveniences over GTK calls that every page repeats.
@MainActor
public enum Widgets {
    public static func addStyleClass(_ widget: some GObjectPointer, _ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget.widget), name)
    }

    /// The name assistive technologies (and dogtail tests) read for an icon-only widget.
    public static func setAccessibleName(_ widget: some GObjectPointer, _ name: String) {
        if let accessible = gtk_widget_get_accessible(widget.widget) {
            atk_object_set_name(accessible, name)
        }
    }

    public static func iconButton(icon: String, accessibleName: String, tooltip: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon, GTK_ICON_SIZE_BUTTON)!
        gtk_widget_set_tooltip_text(button, tooltip)
        setAccessibleName(button, accessibleName)
        return button
    }

    public static func setMargins(_ widget: some GObjectPointer, _ margin: Int32) {
        gtk_widget_set_margin_top(widget.widget, margin)
        gtk_widget_set_margin_bottom(widget.widget, margin)
        gtk_widget_set_margin_start(widget.widget, margin)
        gtk_widget_set_margin_end(widget.widget, margin)
    }

    /// Destroys every child of `container` (a list's rows, before it is filled again).
    public static func destroyChildren(_ container: some GObjectPointer) {
        gtk_container_foreach(container.container, { child, _ in if let child { gtk_widget_destroy(child) } }, nil)
    }

    /// Adds an app's stylesheet for the default screen; `key` makes a second call with the same sheet a no-op.
    public static func installStylesheet(_ css: String, key: String) {
        guard !installedStylesheets.contains(key), let screen = gdk_screen_get_default() else { return }
        installedStylesheets.insert(key)
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider),
                                                  guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }

    private static var installedStylesheets: Set<String> = []
}

import CGtk
import GLibSwift

/// Small conveniences over GTK calls that the pages repeat.
@MainActor
enum Widgets {
    static func addStyleClass(_ widget: some GObjectPointer, _ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget.widget), name)
    }

    /// The name assistive technologies (and dogtail tests) read for an icon-only widget.
    static func setAccessibleName(_ widget: some GObjectPointer, _ name: String) {
        if let accessible = gtk_widget_get_accessible(widget.widget) {
            atk_object_set_name(accessible, name)
        }
    }

    static func iconButton(icon: String, accessibleName: String, tooltip: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name(icon, GTK_ICON_SIZE_BUTTON)!
        gtk_widget_set_tooltip_text(button, tooltip)
        setAccessibleName(button, accessibleName)
        return button
    }

    static func setMargins(_ widget: some GObjectPointer, _ margin: Int32) {
        gtk_widget_set_margin_top(widget.widget, margin)
        gtk_widget_set_margin_bottom(widget.widget, margin)
        gtk_widget_set_margin_start(widget.widget, margin)
        gtk_widget_set_margin_end(widget.widget, margin)
    }

    /// Installs the app's stylesheet for the default screen (once).
    static func installStylesheet() {
        guard !stylesheetInstalled, let screen = gdk_screen_get_default() else { return }
        stylesheetInstalled = true
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, stylesheet, -1, nil)
        gtk_style_context_add_provider_for_screen(screen, OpaquePointer(provider),
                                                  guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }

    private static var stylesheetInstalled = false

    private static let stylesheet = """
    .map-attribution {
        background-color: alpha(@theme_bg_color, 0.85);
        color: @theme_fg_color;
        padding: 2px 8px;
        border-top-left-radius: 6px;
        font-size: smaller;
    }
    .map-controls button {
        min-width: 34px;
        min-height: 34px;
    }
    .status-page-title {
        font-size: 20pt;
        font-weight: 800;
    }
    .status-page-icon {
        opacity: 0.5;
    }
    .photo-placeholder {
        background-color: alpha(@theme_fg_color, 0.06);
        color: alpha(@theme_fg_color, 0.45);
        border-radius: 4px;
    }
    """
}

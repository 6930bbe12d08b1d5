import GLibSwift

/// The map's styles: its credit label and zoom buttons.
@MainActor
public enum MapStyle {
    public static func install() {
        Widgets.installStylesheet(css, key: "map-view")
    }

    private static let css = """
    .map-attribution {
        background-color: alpha(@theme_bg_color, 0.85);
        color: @theme_fg_color;
        padding: 2px 8px;
        border-top-left-radius: 6px;
        font-size: smaller;
    }
    .map-offline-note {
        background-color: alpha(@theme_bg_color, 0.85);
        color: alpha(@theme_fg_color, 0.8);
        padding: 2px 8px;
        border-top-right-radius: 6px;
        font-size: smaller;
    }
    .map-controls button {
        min-width: 34px;
        min-height: 34px;
    }
    """
}

import GLibSwift
import MapView

/// Virtual Tourist's own styles (the map's come with MapView).
@MainActor
enum Stylesheet {
    static func install() {
        MapStyle.install()
        Widgets.installStylesheet(css, key: "virtual-tourist")
    }

    private static let css = """
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
    .photo-viewer {
        background-color: #242424;
    }
    .photo-viewer-info {
        background-color: alpha(black, 0.6);
        color: white;
        border-radius: 6px;
        padding: 6px 10px;
    }
    """
}

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
    .photo-tile {
        /* The placeholder's square is the photo's (the content box): 4 px corners inside the 3 px padding. */
        background-clip: content-box;
        border-radius: 7px;
        transition: background-color 200ms ease-out;
    }
    .photo-tile image {
        transition: opacity 200ms ease-out;
    }
    .photo-tile.photo-placeholder {
        /* The theme's text colour, faint: a grey square on the light style's and the dark style's background alike. */
        background-color: alpha(@theme_fg_color, 0.08);
    }
    .photo-tile.photo-placeholder image {
        opacity: 0;
    }
    .photo-tile.instant, .photo-tile.instant image {
        transition: none;
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

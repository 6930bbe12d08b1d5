import GLibSwift
import MapView

/// On the Map's styles, over the map's own.
@MainActor
enum Stylesheet {
    static func install() {
        MapStyle.install()
        Widgets.installStylesheet(css, key: "on-the-map")
    }

    private static let css = """
    .login-title { font-size: 20pt; font-weight: 800; }
    .status-title { font-size: 16pt; font-weight: 800; }
    .dialog-question { font-size: 14pt; font-weight: 700; }
    .student-name { font-weight: 700; }
    .avatar {
        border-radius: 20px;
        color: white;
        font-weight: 700;
        min-width: 40px;
        min-height: 40px;
    }
    .avatar-mine { background-color: #1c71d8; }
    .avatar-0 { background-color: #26a269; }
    .avatar-1 { background-color: #c64600; }
    .avatar-2 { background-color: #813d9c; }
    .avatar-3 { background-color: #986a44; }
    .avatar-4 { background-color: #e01b24; }
    .avatar-5 { background-color: #5e5c64; }
    """
}

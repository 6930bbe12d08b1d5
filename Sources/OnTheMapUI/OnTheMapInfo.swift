import Translations

/// Names and numbers the desktop sees; keep them in step with meson.build and the metainfo.
public enum OnTheMapInfo {
    public static let id = "io.github.virtualtourist.OnTheMap"
    /// The name people see: the window, the About dialog, the shell.
    public static var name: String {
        // Translators: the app's name; keep it as it is unless your language knows the app by another name.
        tr("On the Map")
    }
    public static let programName = "on-the-map"
    public static let version = "0.1.0"
    public static let website = "https://github.com/virtualtourist/VirtualTourist"
    /// How the app names itself to tile servers and geocoders (their usage policies ask for it).
    public static let userAgent = "OnTheMap/\(version) (+\(website))"
}

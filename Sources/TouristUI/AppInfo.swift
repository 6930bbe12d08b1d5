import Translations

/// Names and numbers the desktop sees; keep them in step with meson.build and the metainfo.
public enum AppInfo {
    public static let id = "io.github.virtualtourist.VirtualTourist"
    /// The name people see: the window, the About dialog, the shell.
    public static var name: String {
        // Translators: the app's name; keep it as it is unless your language knows the app by another name.
        tr("Virtual Tourist")
    }
    public static let programName = "virtual-tourist"
    public static let version = "0.1.0"
    public static let website = "https://github.com/virtualtourist/VirtualTourist"
    /// How the app names itself to tile servers and Flickr (their usage policies ask for it).
    public static let userAgent = "VirtualTourist/\(version) (+\(website))"
}

/// Names and numbers the desktop sees; keep them in step with meson.build and the metainfo.
public enum OnTheMapInfo {
    public static let id = "io.github.virtualtourist.OnTheMap"
    public static let name = "On the Map"
    public static let programName = "on-the-map"
    public static let version = "0.1.0"
    public static let website = "https://github.com/virtualtourist/VirtualTourist"
    /// How the app names itself to tile servers and geocoders (their usage policies ask for it).
    public static let userAgent = "OnTheMap/\(version) (+\(website))"
}

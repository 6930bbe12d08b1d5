import Foundation

/// Where an installed program's data is: meson installs the programs in `<prefix>/bin` and what they read
/// (catalogues, layouts, the basemap) in `<prefix>/share`.
public enum InstalledData {
    /// `<prefix>/share` for the program at `executable` (`<prefix>/bin/app`).
    public static func shareFolder(besideExecutable executable: URL) -> URL {
        executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share")
    }
}

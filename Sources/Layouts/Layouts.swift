import CGtk
import Foundation
import GLibSwift
import Translations

/// Both apps' window layouts (data/ui), one GResource: meson installs it beside the program
/// (`<prefix>/share/virtual-tourist`); SwiftPM's plugin builds it into this target's resource bundle beside its binaries.
public enum Layouts {
    private static let resourcePrefix = "/io/github/virtualtourist/ui/"
    private static let fileName = "virtual-tourist.gresource"

    /// Registers the layouts with GIO; call once in `main`, before any window is built.
    public static func register() {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() ?? URL(fileURLWithPath: "/")
        let binFolder = executable.deletingLastPathComponent()
        let candidates = [
            InstalledData.shareFolder(besideExecutable: executable).appending(path: "virtual-tourist/\(fileName)"),
            binFolder.appending(path: "VirtualTourist_Layouts.resources/\(fileName)"),
        ]
        var reasons: [String] = []
        for file in candidates where FileManager.default.fileExists(atPath: file.path) {
            var error: UnsafeMutablePointer<GError>?
            if let resource = g_resource_load(file.path, &error) {
                g_resources_register(resource)
                return
            }
            reasons.append("\(file.path): \(error.map { String(cString: $0.pointee.message) } ?? "unreadable")")
            g_clear_error(&error)
        }
        fatalError("The window layouts (\(fileName)) are missing or broken; reinstall the app. Looked in: "
                   + (reasons.isEmpty ? candidates.map(\.path).joined(separator: ", ") : reasons.joined(separator: "; ")))
    }

    /// The layout `name` (data/ui/`name`.ui), its texts in the user's language.
    @MainActor
    public static func builder(_ name: String) -> Builder {
        Builder(resource: resourcePrefix + name + ".ui", translationDomain: translationDomain)
    }
}

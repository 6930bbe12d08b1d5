import Foundation
import PackagePlugin

/// Compiles data/ui (the windows' GtkBuilder files) into one GResource with glib-compile-resources, as meson does
/// for the install; SwiftPM puts it in the Layouts target's resource bundle beside the binaries it builds.
@main
struct CompileLayouts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "data/ui")
        let manifest = folder.appending(path: "virtual-tourist.gresource.xml")
        let output = context.pluginWorkDirectoryURL.appending(path: "virtual-tourist.gresource")
        // Every file of the folder is an input, so editing a .ui file rebuilds the resource.
        let inputs = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.path < $1.path }
        return [.buildCommand(
            displayName: "Compiling the window layouts (data/ui) into virtual-tourist.gresource",
            executable: try glibCompileResources(),
            arguments: ["--sourcedir", folder.path, "--target", output.path, manifest.path],
            inputFiles: inputs,
            outputFiles: [output])]
    }

    /// GLib's compiler from PATH (SwiftPM's `context.tool(named:)` knows only tools built by packages).
    private func glibCompileResources() throws -> URL {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for folder in folders + ["/usr/bin"] {
            let tool = URL(fileURLWithPath: String(folder)).appending(path: "glib-compile-resources")
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        throw LayoutsError.noCompiler
    }
}

enum LayoutsError: Error, CustomStringConvertible {
    case noCompiler
    var description: String { "glib-compile-resources is not installed (Debian: libglib2.0-bin, with libgtk-3-dev)" }
}

import Foundation

/// The user's Pictures folder as the desktop names it (xdg-user-dirs), where their own photos are looked for.
public enum PicturesFolder {
    /// The XDG user directory PICTURES, read as xdg-user-dir and GLib do: `$XDG_CONFIG_HOME` (or ~/.config)/user-dirs.dirs,
    /// line `XDG_PICTURES_DIR="$HOME/…"` or an absolute path; comments and blank lines ignored; the last entry wins.
    /// Nil when the entry names $HOME itself (the desktop's way of saying "no such folder"; a whole home is never
    /// indexed); without an entry, ~/Pictures if it exists.
    public static func locate(environment: [String: String]) -> URL? {
        guard let home = homeFolder(environment: environment) else { return nil }
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let entry = (try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8))
            .flatMap { picturesEntry(in: $0, home: home) }
        let folder: String
        if let entry {
            folder = entry
        } else {
            folder = home + "/Pictures"
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        }
        guard trimmed(folder) != trimmed(home) else { return nil }
        return URL(fileURLWithPath: trimmed(folder), isDirectory: true)
    }

    private static func homeFolder(environment: [String: String]) -> String? {
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home.hasPrefix("/") ? home : nil
    }

    /// The last well-formed XDG_PICTURES_DIR line, $HOME expanded; the format GLib's g_get_user_special_dir accepts.
    static func picturesEntry(in text: String, home: String) -> String? {
        var found: String?
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(rawLine).drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("XDG_PICTURES_DIR") else { continue }
            line = line.dropFirst("XDG_PICTURES_DIR".count).drop { $0 == " " || $0 == "\t" }
            guard line.first == "=" else { continue }
            line = line.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard line.first == "\"" else { continue }
            line = line.dropFirst()
            var value = ""
            var escaped = false
            var closed = false
            for character in line {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    value.append(character)
                }
            }
            guard closed else { continue }
            if value == "$HOME" || value.hasPrefix("$HOME/") {
                found = home + value.dropFirst("$HOME".count)
            } else if value.hasPrefix("/") {
                found = value
            }
        }
        return found
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

/// The Ctrl+? keyboard shortcuts window, as GtkBuilder XML built from a table (kept in code so the
/// build tree and the installed app find it without a resource bundle).
enum ShortcutsWindow {
    /// Groups of (what it does, GTK accelerators separated by spaces).
    static let groups: [(title: String, shortcuts: [(title: String, accelerator: String)])] = [
        ("Map", [
            ("Zoom in", "<Primary>plus"),
            ("Zoom out", "<Primary>minus"),
            ("Search for a place", "<Primary>f"),
            ("My Places", "F9"),
        ]),
        ("Pins", [
            ("Back to the map", "<Alt>Left Escape"),
            ("Undo a deletion", "<Primary>z"),
        ]),
        ("Photo Album", [
            ("View a photo larger", "Return"),
            ("Remove a photo", "Delete"),
            ("First and last photo", "Home End"),
            ("A photo's menu", "Menu <Shift>F10"),
        ]),
        ("Photo Viewer", [
            ("Previous and next photo", "Left Right"),
            ("First and last photo", "Home End"),
            ("Close the viewer", "Escape"),
        ]),
        ("General", [
            ("Keyboard shortcuts", "<Primary>question"),
            ("Quit", "<Primary>q"),
        ]),
    ]

    static var definition: String {
        // Typed closures: an untyped multi-line literal could be taken for another string-like type.
        let groupsXML = groups.map { group -> String in
            let shortcuts = group.shortcuts.map { shortcut -> String in
                """
                        <child>
                          <object class="GtkShortcutsShortcut">
                            <property name="visible">True</property>
                            <property name="title">\(escaped(shortcut.title))</property>
                            <property name="accelerator">\(escaped(shortcut.accelerator))</property>
                          </object>
                        </child>
                """
            }.joined(separator: "\n")
            return """
                    <child>
                      <object class="GtkShortcutsGroup">
                        <property name="visible">True</property>
                        <property name="title">\(escaped(group.title))</property>
                \(shortcuts)
                      </object>
                    </child>
                """
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <interface>
              <object class="GtkShortcutsWindow" id="shortcuts">
                <property name="modal">True</property>
                <child>
                  <object class="GtkShortcutsSection">
                    <property name="visible">True</property>
                    <property name="section-name">shortcuts</property>
                    <property name="max-height">12</property>
            \(groupsXML)
                  </object>
                </child>
              </object>
            </interface>
            """
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

import Translations

/// The Ctrl+? keyboard shortcuts window, as GtkBuilder XML built from a table (kept in code so the
/// build tree and the installed app find it without a resource bundle); its titles are translated, then escaped.
enum ShortcutsWindow {
    /// Groups of (what it does, GTK accelerators separated by spaces); made when asked for, after `Translations.setUp`.
    static var groups: [(title: String, shortcuts: [(title: String, accelerator: String)])] {
        [
            (tr("Map"), [
                (tr("Zoom in"), "<Primary>plus"),
                (tr("Zoom out"), "<Primary>minus"),
                (tr("Search for a place"), "<Primary>f"),
                (tr("My Places"), "F9"),
            ]),
            (tr("Pins"), [
                (tr("Back to the map"), "<Alt>Left Escape"),
                (tr("Undo a deletion"), "<Primary>z"),
            ]),
            (tr("Photo Album"), [
                (tr("View a photo larger"), "Return"),
                (tr("Remove a photo"), "Delete"),
                (tr("First and last photo"), "Home End"),
                (tr("A photo's menu"), "Menu <Shift>F10"),
            ]),
            (tr("Photo Viewer"), [
                (tr("Previous and next photo"), "Left Right"),
                (tr("First and last photo"), "Home End"),
                (tr("Close the viewer"), "Escape"),
            ]),
            (tr("General"), [
                (tr("Keyboard shortcuts"), "<Primary>question"),
                (tr("Quit"), "<Primary>q"),
            ]),
        ]
    }

    /// The window's GtkBuilder XML. Plain one-line literals, not multi-line ones: xgettext reads this file as C.
    static var definition: String {
        let groupsXML = groups.map { group -> [String] in
            let shortcuts = group.shortcuts.map { shortcut -> String in
                [
                    "<child>",
                    "  <object class=\"GtkShortcutsShortcut\">",
                    "    <property name=\"visible\">True</property>",
                    "    <property name=\"title\">\(escaped(shortcut.title))</property>",
                    "    <property name=\"accelerator\">\(escaped(shortcut.accelerator))</property>",
                    "  </object>",
                    "</child>",
                ].joined(separator: "\n")
            }
            return [
                "<child>",
                "  <object class=\"GtkShortcutsGroup\">",
                "    <property name=\"visible\">True</property>",
                "    <property name=\"title\">\(escaped(group.title))</property>",
            ] + shortcuts + [
                "  </object>",
                "</child>",
            ]
        }
        return ([
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<interface>",
            "  <object class=\"GtkShortcutsWindow\" id=\"shortcuts\">",
            "    <property name=\"modal\">True</property>",
            "    <child>",
            "      <object class=\"GtkShortcutsSection\">",
            "        <property name=\"visible\">True</property>",
            "        <property name=\"section-name\">shortcuts</property>",
            "        <property name=\"max-height\">12</property>",
        ] + groupsXML.flatMap { $0 } + [
            "      </object>",
            "    </child>",
            "  </object>",
            "</interface>",
        ]).joined(separator: "\n")
    }

    /// A title for the XML: a translation may hold `&` or `<`.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

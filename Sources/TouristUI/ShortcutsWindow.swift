/// The Ctrl+? keyboard shortcuts window, as GtkBuilder XML (kept in code so the build tree and
/// the installed app find it without a resource bundle).
enum ShortcutsWindow {
    static let definition = """
    <?xml version="1.0" encoding="UTF-8"?>
    <interface>
      <object class="GtkShortcutsWindow" id="shortcuts">
        <property name="modal">True</property>
        <child>
          <object class="GtkShortcutsSection">
            <property name="visible">True</property>
            <property name="section-name">shortcuts</property>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">True</property>
                <property name="title">Map</property>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Zoom in</property>
                    <property name="accelerator">&lt;Primary&gt;plus</property>
                  </object>
                </child>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Zoom out</property>
                    <property name="accelerator">&lt;Primary&gt;minus</property>
                  </object>
                </child>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Search for a place</property>
                    <property name="accelerator">&lt;Primary&gt;f</property>
                  </object>
                </child>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">My Places</property>
                    <property name="accelerator">F9</property>
                  </object>
                </child>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">True</property>
                <property name="title">Pins</property>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Back to the map</property>
                    <property name="accelerator">&lt;Alt&gt;Left Escape</property>
                  </object>
                </child>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Undo a deletion</property>
                    <property name="accelerator">&lt;Primary&gt;z</property>
                  </object>
                </child>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">True</property>
                <property name="title">General</property>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Keyboard shortcuts</property>
                    <property name="accelerator">&lt;Primary&gt;question</property>
                  </object>
                </child>
                <child>
                  <object class="GtkShortcutsShortcut">
                    <property name="visible">True</property>
                    <property name="title">Quit</property>
                    <property name="accelerator">&lt;Primary&gt;q</property>
                  </object>
                </child>
              </object>
            </child>
          </object>
        </child>
      </object>
    </interface>
    """
}

import CGtk

/// A GSimpleAction without a parameter, added to an action map (an application or a window).
@MainActor
public enum SimpleAction {
    /// Adds `name` to `map`, running `body` when activated; the map keeps the action alive.
    /// Returns the action, e.g. to enable or disable it.
    @discardableResult
    public static func add(_ name: String, to map: some GObjectPointer,
                           _ body: @escaping @MainActor () -> Void) -> OpaquePointer {
        let action = g_simple_action_new(name, nil)!
        action.connect(.actionActivate) { _ in body() }
        g_action_map_add_action(OpaquePointer(map.rawObject), action)
        g_object_unref(UnsafeMutableRawPointer(action))
        return action
    }

    public static func setEnabled(_ action: OpaquePointer, _ enabled: Bool) {
        g_simple_action_set_enabled(action, enabled.gboolean)
    }
}

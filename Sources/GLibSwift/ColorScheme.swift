import CGtk
import Logging

/// What the desktop asks of apps' colours, as the freedesktop appearance portal and GNOME's
/// `org.gnome.desktop.interface color-scheme` both name it.
public enum ColorSchemePreference: Equatable, Sendable {
    case noPreference, preferDark, preferLight

    /// The portal's number: 1 dark, 2 light, anything else (0, or a value newer than this code) none.
    public init(portalValue: UInt32) {
        switch portalValue {
        case 1: self = .preferDark
        case 2: self = .preferLight
        default: self = .noPreference
        }
    }

    /// GSettings' nick: 'prefer-dark', 'prefer-light', anything else ('default') none.
    public init(settingsValue: String) {
        switch settingsValue {
        case "prefer-dark": self = .preferDark
        case "prefer-light": self = .preferLight
        default: self = .noPreference
        }
    }

    /// A portal value as it arrives: a `u` wrapped in one variant (ReadOne, SettingChanged) or two (the older
    /// Read); nil when it is no number at all.
    public init?(portalVariant: OpaquePointer) {
        var value = g_variant_ref(portalVariant)!
        defer { g_variant_unref(value) }
        for _ in 0..<3 where String(cString: g_variant_get_type_string(value)) == "v" {
            let inner = g_variant_get_variant(value)!
            g_variant_unref(value)
            value = inner
        }
        guard String(cString: g_variant_get_type_string(value)) == "u" else { return nil }
        self.init(portalValue: g_variant_get_uint32(value))
    }
}

/// Follows the desktop's dark-style preference and sets GTK's `gtk-application-prefer-dark-theme` from it, live:
/// GTK 3 does neither by itself. The appearance portal first (what sandboxed and non-GNOME desktops answer), then
/// GNOME's GSettings key when no portal does; everything asynchronous, so the main loop never waits for D-Bus.
@MainActor
public final class DesktopColorScheme {
    /// Where the current preference came from.
    public enum Source: String, Sendable {
        case none, portal, settings
    }

    public private(set) var preference = ColorSchemePreference.noPreference
    public private(set) var source = Source.none

    private let logger: Logger
    /// The value before this object touched it (a user's settings.ini), kept for "no preference".
    private let preferDarkBefore: Bool
    /// Ends the calls still in flight when this object goes.
    private let cancellable: UnsafeMutablePointer<GCancellable>
    /// Our reference to the session bus while the portal's signal is subscribed.
    private var bus: OpaquePointer?
    private var portalSubscription: guint = 0
    /// Our reference to GNOME's interface settings, only while no portal answers.
    private var settings: UnsafeMutablePointer<GSettings>?

    private static let portalName = "org.freedesktop.portal.Desktop"
    private static let portalPath = "/org/freedesktop/portal/desktop"
    private static let portalInterface = "org.freedesktop.portal.Settings"
    private static let appearanceNamespace = "org.freedesktop.appearance"
    private static let colorSchemeKey = "color-scheme"
    private static let interfaceSchema = "org.gnome.desktop.interface"
    private static let preferDarkProperty = "gtk-application-prefer-dark-theme"
    /// A portal that is started on demand answers well within this; a hung one must not delay the fallback.
    private static let portalTimeoutMilliseconds: Int32 = 5_000

    /// Starts following at once; needs GTK initialised (call it from the application's startup).
    public init(logger: Logger) {
        self.logger = logger
        preferDarkBefore = Self.gtkPrefersDark()
        cancellable = g_cancellable_new()
        g_bus_get(G_BUS_TYPE_SESSION, cancellable, asyncReadyThunk, asyncBox { [weak self] result in
            var error: UnsafeMutablePointer<GError>?
            let bus = g_bus_get_finish(result, &error)
            guard let self else {
                if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
                g_clear_error(&error)
                return
            }
            if let bus {
                self.bus = bus // g_bus_get_finish's reference is ours
                self.askPortal()
            } else {
                self.portalUnavailable(error, asking: "for the session bus")
            }
        })
    }

    isolated deinit {
        g_cancellable_cancel(cancellable)
        if let bus {
            if portalSubscription != 0 { g_dbus_connection_signal_unsubscribe(bus, portalSubscription) }
            g_object_unref(UnsafeMutableRawPointer(bus))
        }
        if let settings { g_object_unref(settings) } // its signal handler (and box) go with it
        g_object_unref(cancellable)
    }

    // MARK: The portal

    /// Subscribes to SettingChanged first, so no change can fall between the read and the subscription.
    private func askPortal() {
        guard let bus else { return }
        let box = ClosureBox<SettingChangedHandler> { [weak self] parameters in self?.portalSettingChanged(parameters) }
        portalSubscription = g_dbus_connection_signal_subscribe(
            bus, Self.portalName, Self.portalInterface, "SettingChanged", Self.portalPath, Self.appearanceNamespace,
            G_DBUS_SIGNAL_FLAGS_NONE, settingChangedThunk, box.retainedPointer(), ClosureBox<SettingChangedHandler>.destroyNotify)
        readPortal(method: "ReadOne")
    }

    /// `ReadOne` (portal version 2); on a portal too old for it, `Read`, which answers the same value wrapped once more.
    private func readPortal(method: String) {
        guard let bus else { return }
        var arguments: [OpaquePointer?] = [g_variant_new_string(Self.appearanceNamespace), g_variant_new_string(Self.colorSchemeKey)]
        let parameters = g_variant_new_tuple(&arguments, gsize(arguments.count))
        g_dbus_connection_call(bus, Self.portalName, Self.portalPath, Self.portalInterface, method, parameters, nil,
                               G_DBUS_CALL_FLAGS_NONE, Self.portalTimeoutMilliseconds, cancellable, asyncReadyThunk,
                               asyncBox { [weak self] result in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(bus, result, &error)
            defer { if let reply { g_variant_unref(reply) } }
            guard let self else { g_clear_error(&error); return }
            guard let reply else {
                if method == "ReadOne",
                   g_error_matches(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_METHOD.rawValue)) != 0 {
                    g_clear_error(&error)
                    self.readPortal(method: "Read")
                } else {
                    self.portalUnavailable(error, asking: "\(method)(\(Self.appearanceNamespace), \(Self.colorSchemeKey))")
                }
                return
            }
            let value = g_variant_get_child_value(reply, 0)!
            defer { g_variant_unref(value) }
            if let preference = ColorSchemePreference(portalVariant: value) {
                self.apply(preference, from: .portal)
            } else {
                self.logger.debug("The appearance portal's \(Self.colorSchemeKey) is no number; following GSettings")
                self.followSettings()
            }
        })
    }

    /// A change the portal announces wins, even after a fallback to GSettings (a portal started late).
    private func portalSettingChanged(_ parameters: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(parameters)) == "(ssv)" else { return }
        let key = g_variant_get_child_value(parameters, 1)!
        defer { g_variant_unref(key) }
        guard String(cString: g_variant_get_string(key, nil)) == Self.colorSchemeKey else { return }
        let value = g_variant_get_child_value(parameters, 2)!
        defer { g_variant_unref(value) }
        guard let preference = ColorSchemePreference(portalVariant: value) else { return }
        stopFollowingSettings()
        apply(preference, from: .portal)
    }

    private func portalUnavailable(_ error: UnsafeMutablePointer<GError>?, asking what: String) {
        var error = error
        defer { g_clear_error(&error) }
        if let error, g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)) != 0 { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "no answer"
        logger.debug("No appearance portal (\(what): \(reason)); following GSettings")
        followSettings()
    }

    // MARK: GSettings

    /// GNOME's key, if its schema is installed: looked up first, since GSettings aborts on a schema it lacks.
    private func followSettings() {
        guard settings == nil, source != .portal else { return }
        guard let schemas = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(schemas, Self.interfaceSchema, 1) else {
            logger.debug("No \(Self.interfaceSchema) schema installed: no colour-scheme preference to follow")
            return
        }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, Self.colorSchemeKey) != 0 else {
            logger.debug("\(Self.interfaceSchema) has no \(Self.colorSchemeKey) key (GNOME before 42)")
            return
        }
        let settings = g_settings_new_full(schema, nil, nil)!
        self.settings = settings
        settings.connect(.settingsColorSchemeChanged) { [weak self] _ in self?.readSettings() }
        readSettings()
    }

    private func readSettings() {
        guard let settings, source != .portal else { return }
        let nick = g_settings_get_string(settings, Self.colorSchemeKey)!
        defer { g_free(nick) }
        apply(ColorSchemePreference(settingsValue: String(cString: nick)), from: .settings)
    }

    private func stopFollowingSettings() {
        guard let settings else { return }
        self.settings = nil
        g_object_unref(settings)
    }

    // MARK: GTK

    private func apply(_ preference: ColorSchemePreference, from source: Source) {
        self.preference = preference
        self.source = source
        let dark = switch preference {
        case .preferDark: true
        case .preferLight: false
        case .noPreference: preferDarkBefore
        }
        logger.debug("Colour scheme from \(source.rawValue): \(preference) — \(dark ? "dark" : "light") style")
        guard let gtkSettings = gtk_settings_get_default(), Self.gtkPrefersDark() != dark else { return }
        var value = GValue()
        g_value_init(&value, Self.booleanType)
        g_value_set_boolean(&value, dark.gboolean)
        g_object_set_property(gtkSettings.gobject, Self.preferDarkProperty, &value)
        g_value_unset(&value)
    }

    private static func gtkPrefersDark() -> Bool {
        guard let gtkSettings = gtk_settings_get_default() else { return false }
        var value = GValue()
        g_value_init(&value, booleanType)
        g_object_get_property(gtkSettings.gobject, preferDarkProperty, &value)
        defer { g_value_unset(&value) }
        return Bool(gboolean: g_value_get_boolean(&value))
    }

    /// G_TYPE_BOOLEAN is a macro; its registered name is not.
    private static let booleanType = g_type_from_name("gboolean")
}

// MARK: Callbacks

private typealias AsyncHandler = @MainActor (_ result: OpaquePointer) -> Void
private typealias SettingChangedHandler = @MainActor (_ parameters: OpaquePointer) -> Void

/// An async call's callback: GLib calls it exactly once, so the box is released there rather than by a destroy-notify.
private func asyncBox(_ body: @escaping AsyncHandler) -> UnsafeMutableRawPointer {
    ClosureBox<AsyncHandler>(body).retainedPointer()
}

private let asyncReadyThunk: GAsyncReadyCallback = { _, deliveredResult, data in
    let box = ClosureBox<AsyncHandler>.from(data)
    ClosureBox<AsyncHandler>.destroyNotify(data)
    guard let deliveredResult else { return }
    nonisolated(unsafe) let result = deliveredResult // GLib calls back on the main context the call was made from
    MainActor.assumeIsolated { box.body(result) }
}

private let settingChangedThunk: GDBusSignalCallback = { _, _, _, _, _, deliveredParameters, data in
    guard let deliveredParameters else { return }
    let box = ClosureBox<SettingChangedHandler>.from(data)
    nonisolated(unsafe) let parameters = deliveredParameters // delivered on the main context that subscribed
    MainActor.assumeIsolated { box.body(parameters) }
}

extension PointerSignal {
    /// GSettings::changed for `color-scheme` (argument: the key's name).
    fileprivate static let settingsColorSchemeChanged = PointerSignal("changed::color-scheme")
}

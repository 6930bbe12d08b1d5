import CSecret
import Foundation

/// The kept session in the user's keyring (the Secret Service: GNOME Keyring, KWallet…) through libsecret, as
/// one item of the schema `io.github.virtualtourist.OnTheMap.Session` whose secret is the `KeptSession` as JSON.
/// libsecret's `_sync` calls wait on D-Bus, so each runs off the main actor (`@concurrent`).
public final class KeyringSessionKeeper: SessionKeeper {
    private static let schemaName = OnTheMapInfo.id + ".Session"
    /// The item's one search attribute; it names the item's kind and holds nothing secret.
    private static let attribute = (name: "kind", value: "session")

    public init() {}

    /// Offered only where the default collection exists and is unlocked: storing anywhere else would need a
    /// password prompt the app cannot answer.
    @concurrent
    public func isAvailable() async -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_object_unref(service) }
        guard let collection = secret_collection_for_alias_sync(service, SECRET_COLLECTION_DEFAULT,
                                                                SECRET_COLLECTION_NONE, nil, &error) else {
            g_clear_error(&error)
            return false
        }
        defer { g_object_unref(collection) }
        return secret_collection_get_locked(collection) == 0
    }

    @concurrent
    public func kept() async -> KeptSession? {
        Self.withSchema { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            guard let secret = secret_password_lookupv_sync(schema, attributes, nil, &error) else {
                g_clear_error(&error)
                return nil
            }
            defer { secret_password_free(secret) }
            return try? JSONDecoder().decode(KeptSession.self, from: Data(String(cString: secret).utf8))
        }
    }

    @concurrent
    public func keep(_ session: KeptSession) async throws(SessionKeepingError) {
        let json = String(decoding: (try? JSONEncoder().encode(session)) ?? Data(), as: UTF8.self)
        let failure: String? = Self.withSchema { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            guard secret_password_storev_sync(schema, attributes, SECRET_COLLECTION_DEFAULT, "On the Map session",
                                              json, nil, &error) == 0 else { return nil }
            defer { g_clear_error(&error) }
            return error.map { String(cString: $0.pointee.message) } ?? "unknown failure"
        }
        if let failure { throw SessionKeepingError(detail: failure) }
    }

    @concurrent
    public func forget() async {
        Self.withSchema { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            _ = secret_password_clearv_sync(schema, attributes, nil, &error)
            g_clear_error(&error)
        }
    }

    /// The schema and the attributes that find the item: both built for the call and freed after it
    /// (the `*v` calls take GHashTables, so no variadic C is needed).
    private static func withSchema<T>(_ body: (UnsafeMutablePointer<SecretSchema>, OpaquePointer) -> T) -> T {
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        g_hash_table_insert(types, g_strdup(attribute.name),
                            UnsafeMutableRawPointer(bitPattern: Int(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue)))
        let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types)!
        g_hash_table_unref(types)
        defer { secret_schema_unref(schema) }
        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(attributes, g_strdup(attribute.name), g_strdup(attribute.value))
        defer { g_hash_table_unref(attributes) }
        return body(schema, attributes)
    }
}

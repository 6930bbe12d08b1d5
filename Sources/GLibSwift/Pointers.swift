import CGtk

/// Anything that is a pointer to a GObject instance: typed C struct pointers and opaque ones alike.
public protocol GObjectPointer {
    var rawObject: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    public var rawObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    public var rawObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension GObjectPointer {
    /// GObject "upcasts" (GTK_WIDGET(), G_OBJECT(), …) are C macros; this is the same pointer, retyped.
    public func cast<T>(to type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        UnsafeMutablePointer<T>(OpaquePointer(rawObject))
    }

    public var widget: UnsafeMutablePointer<GtkWidget> { cast() }
    public var gobject: UnsafeMutablePointer<GObject> { cast() }
    public var container: UnsafeMutablePointer<GtkContainer> { cast() }
}

/// A Swift Bool as a gboolean, and back.
extension Bool {
    public var gboolean: gboolean { self ? 1 : 0 }
    public init(gboolean value: gboolean) { self = value != 0 }
}

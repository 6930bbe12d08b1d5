import Foundation

/// Calls `body` with a NULL-terminated `const char **` built from `strings` (GTK takes many lists this way).
public func withCStringArray<Result>(_ strings: [String],
                                     _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) throws -> Result) rethrows -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    var pointers = copies.map { $0.map { UnsafePointer($0) } }
    return try pointers.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
}

// libFuzzer entry point: feeds arbitrary strings to AppDatabase.isPhotoPath.
//
// isPhotoPath guards every path a photo row may name before the store reads, writes or unlinks
// it. Invariant: whenever it says yes, the path, joined to a data folder the way the store joins
// it and resolved with URL.standardized, stays inside <folder>/photos/, and, byte for byte (as the
// kernel sees it), contains no NUL and no empty, "." or ".." component.
import CLibFuzzer
import Foundation
import TouristStore

private let folder = URL(fileURLWithPath: "/tmp/vt-fuzz-data", isDirectory: true)
private let photosPrefix = folder.appendingPathComponent(AppDatabase.photosFolderName, isDirectory: true).path + "/"

/// A broken invariant is a finding: print why (release builds drop precondition messages) and abort,
/// so libFuzzer saves the input as a crash artifact.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("INVARIANT BROKEN: \(message())\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotoPath(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Invalid UTF-8 is repaired (U+FFFD) the way String(decoding:) would for a database text column.
    let path = String(decoding: bytes, as: UTF8.self)
    guard AppDatabase.isPhotoPath(path) else { return 0 }

    // What the store does: dataFolder.appendingPathComponent(relativePath), then resolved.
    let resolved = folder.appendingPathComponent(path, isDirectory: false).standardized.path
    // Compared as bytes: String.hasPrefix compares grapheme clusters, and "/" + a combining mark is one.
    require(resolved.utf8.starts(with: photosPrefix.utf8) && resolved.utf8.count > photosPrefix.utf8.count,
            "resolves outside photos/: \(path.debugDescription) -> \(resolved.debugDescription)")

    // What the kernel sees: the UTF-8 bytes, split on the byte "/".
    let utf8 = Array(path.utf8)
    require(!utf8.contains(0), "accepted a path with NUL: \(path.debugDescription)")
    let components = utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    require(components.count >= 2, "accepted a path with no file under photos/: \(path.debugDescription)")
    require(components[0].elementsEqual(AppDatabase.photosFolderName.utf8),
            "accepted a path outside photos/: \(path.debugDescription)")
    for component in components {
        require(!component.isEmpty, "accepted an empty component: \(path.debugDescription)")
        require(!component.elementsEqual([0x2E]) && !component.elementsEqual([0x2E, 0x2E]),
                "accepted a '.' or '..' component (bytewise): \(path.debugDescription) = \(utf8)")
    }
    return 0
}

// SwiftPM names this file's entry point `<module>_main` and aliases main to it, so libFuzzer's own
// main() cannot be used: run libFuzzer's driver from here (same command-line flags).
var arguments = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argv, fuzzPhotoPath))

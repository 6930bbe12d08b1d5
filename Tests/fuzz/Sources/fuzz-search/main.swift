// libFuzzer entry point: feeds arbitrary bytes to the Flickr search-response decoder, then gives
// the decoded paging to AlbumPaging, as New Collection does.
//
// Every outcome the decoder can give is acceptable: a page, or a typed FlickrError. What is a
// finding: a crash (trap, overflow, force-unwrap), an ASan report, a hang (-timeout), a leak, or
// a page that breaks its own invariants (checked below).
import FlickrClient
import CLibFuzzer
import Foundation

/// A broken invariant is a finding: print why (release builds drop precondition messages) and abort,
/// so libFuzzer saves the input as a crash artifact.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("INVARIANT BROKEN: \(message())\n".utf8))
    abort()
}

/// SplitMix64: the same input always draws the same pages, so a finding replays.
private struct FixedRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearchResponse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let body = start.map { Data(bytes: $0, count: count) } ?? Data()
    // The requested page and page size come from the app (1...4000/perPage, 1...250); vary them a
    // little from the input's first byte so the fallbacks for missing paging fields are exercised.
    let seed = body.first.map(Int.init) ?? 0
    let requestedPage = 1 + seed % 16
    let requestedPerPage = [1, 21, 30, 250][seed % 4]
    do {
        let page = try SearchResponseDecoding.decode(body, requestedPage: requestedPage,
                                                     requestedPerPage: requestedPerPage)
        // A decoded page keeps its counts sane; every photo has an id, an owner and an https URL
        // (plain http only to loopback).
        require(page.total >= 0 && page.pages >= 0, "negative paging in \(page)")
        require(page.skippedCount >= 0, "negative skipped count in \(page)")
        for photo in page.photos {
            require(!photo.id.isEmpty && !photo.owner.isEmpty, "photo without id or owner: \(photo)")
            // HTTPS, or plain HTTP only to this computer (the test server): never http to the internet.
            let scheme = photo.imageURL.scheme?.lowercased()
            let host = photo.imageURL.host ?? ""
            require(!host.isEmpty && (scheme == "https"
                                      || (scheme == "http" && TransportSecurity.isLoopback(host: host))),
                    "insecure image URL accepted: \(photo.imageURL)")
        }
        // What New Collection does next with the server's paging: pick a random reachable page.
        let last = page.lastReachablePage
        require(last >= 1 && last <= AlbumPaging.reachableResults, "lastReachablePage \(last) for \(page)")
        var generator = FixedRandom(seed: UInt64(truncatingIfNeeded: body.count))
        let next = AlbumPaging.randomPage(pages: page.pages, perPage: page.perPage, currentPage: page.page,
                                          using: &generator)
        require((1...last).contains(next) && (last == 1 || next != page.page),
                "randomPage \(next) outside 1...\(last) or equal to the current page for \(page)")
    } catch {
        // A typed FlickrError: the decoder's documented answer to a bad body. Make sure its
        // user-facing text can be produced without trapping.
        _ = error.userMessage
    }
    return 0
}

// SwiftPM names this file's entry point `<module>_main` and aliases main to it, so libFuzzer's own
// main() cannot be used: run libFuzzer's driver from here (same command-line flags).
var arguments = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&arguments, &argv, fuzzSearchResponse))

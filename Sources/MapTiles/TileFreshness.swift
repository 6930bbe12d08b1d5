import Foundation

/// What the tile server said about keeping one tile (RFC 9111, as a private cache): the validators to ask again
/// with, and until when the kept tile may be shown without asking. OpenStreetMap's tile policy lets apps keep tiles
/// at least a week, so a shorter lifetime, none, or a `no-cache`/`no-store` is raised to `minimumLifetime` (the
/// floor is what keeps a map's panning from asking the server again). `must-revalidate` is not heeded: offline, a
/// stale tile is still the map.
public struct TileFreshness: Sendable, Equatable {
    public static let minimumLifetime: TimeInterval = 7 * 24 * 60 * 60

    /// Sent back as `If-None-Match`, verbatim.
    public var etag: String?
    /// Sent back as `If-Modified-Since`, verbatim.
    public var lastModified: String?
    public var freshUntil: Date

    public init(etag: String? = nil, lastModified: String? = nil, freshUntil: Date) {
        self.etag = etag
        self.lastModified = lastModified
        self.freshUntil = freshUntil
    }

    /// What a `200` says: its validators, and its freshness counted from `receivedAt`.
    public init(response fields: [(name: String, value: String)], receivedAt: Date) {
        let headers = ResponseHeaders(fields)
        self.init(etag: headers.validator("ETag"), lastModified: headers.validator("Last-Modified"),
                  freshUntil: Self.freshUntil(headers, receivedAt: receivedAt))
    }

    /// The kept tile after a `304 Not Modified`: fresh again by the 304's own headers (servers must repeat
    /// `Cache-Control` and `Expires` in it); validators it carries replace the kept ones, absent ones stay.
    public func renewed(byNotModified fields: [(name: String, value: String)], receivedAt: Date) -> TileFreshness {
        let headers = ResponseHeaders(fields)
        return TileFreshness(etag: headers.validator("ETag") ?? etag,
                             lastModified: headers.validator("Last-Modified") ?? lastModified,
                             freshUntil: Self.freshUntil(headers, receivedAt: receivedAt))
    }

    /// The headers that ask for the tile only if it changed; never `Cache-Control` or `Pragma` (the policy
    /// forbids asking the server's caches to be bypassed).
    public var conditionalHeaders: [(String, String)] {
        var headers: [(String, String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }

    private static func freshUntil(_ headers: ResponseHeaders, receivedAt: Date) -> Date {
        let control = headers.cacheControl
        // s-maxage is for shared caches; this one is private. max-age wins over Expires; either one invalid
        // means already expired, which the floor then raises.
        let lifetime: TimeInterval
        if let maxAge = control["max-age"] {
            lifetime = maxAge.flatMap(Self.deltaSeconds) ?? 0
        } else if let expires = headers.first("Expires") {
            // Relative to the server's Date, so the two clocks' difference moves nothing.
            let sent = headers.first("Date").flatMap(HTTPDate.parse) ?? receivedAt
            lifetime = HTTPDate.parse(expires).map { $0.timeIntervalSince(sent) } ?? 0
        } else {
            lifetime = 0 // nothing said: the floor
        }
        let age = headers.first("Age").flatMap(Self.deltaSeconds) ?? 0 // how long caches on the way held it
        return receivedAt.addingTimeInterval(max(lifetime - age, minimumLifetime))
    }

    /// RFC 9111's delta-seconds: digits only, capped at 2^31 as it asks.
    private static func deltaSeconds(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return min(TimeInterval(text) ?? .infinity, 2_147_483_648)
    }
}

/// A response's header fields, looked up by name regardless of case.
private struct ResponseHeaders {
    private let fields: [(name: String, value: String)]

    init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    func all(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    func first(_ name: String) -> String? {
        all(name).first.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A validator worth sending back: present, short, and free of control characters (which would make the
    /// request itself invalid, so the tile could never be asked for again).
    func validator(_ name: String) -> String? {
        guard let value = first(name), !value.isEmpty, value.utf8.count <= 512,
              value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
        return value
    }

    /// Every `Cache-Control` line's directives, by lower-cased name; the first of a repeated one counts.
    var cacheControl: [String: String?] {
        var directives: [String: String?] = [:]
        for line in all("Cache-Control") {
            for item in Self.splitOutsideQuotes(line) {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard let name = parts.first?.lowercased(), !name.isEmpty, directives[name] == nil else { continue }
                var value = parts.count > 1 ? parts[1] : nil
                if let quoted = value, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                    value = String(quoted.dropFirst().dropLast())
                }
                directives[name] = .some(value)
            }
        }
        return directives
    }

    /// Splits at commas, except inside a quoted string (`no-cache="a, b"` is one directive).
    private static func splitOutsideQuotes(_ line: String) -> [String] {
        var items: [String] = [], current = "", quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// HTTP dates in the three forms a recipient must read (RFC 9110 §5.6.7), all in GMT.
enum HTTPDate {
    private static let formats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz",
                                  "EEE MMM d HH:mm:ss yyyy"]

    static func parse(_ text: String) -> Date? {
        // A formatter per call: a few per tile response, and no lock to share one between threads.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // asctime pads the day with a space ("Nov  6"): single spaces throughout.
        let trimmed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}

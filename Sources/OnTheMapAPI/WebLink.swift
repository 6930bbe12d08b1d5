import Foundation

/// A student's shared link as a browser's address bar takes it: an http or https scheme and a host (no space or
/// control character in it), every other character a browser would percent-encode (spaces, quotes, `<`, letters
/// beyond ASCII) encoded. The server accepts these and the client opens them: one rule for both.
public enum WebLink {
    /// The URL a browser would open for `text`, or nil (`javascript:`, `data:`, `file:`, no host, "example.org").
    public static func url(_ text: String) -> URL? {
        guard !text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }),
              let encoded = text.addingPercentEncoding(withAllowedCharacters: browserKept),
              let components = URLComponents(string: encoded), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", encoded.lowercased().hasPrefix(scheme + "://"),
              let host = components.percentEncodedHost, !host.isEmpty,
              !(host.removingPercentEncoding ?? " ").contains(where: \.isWhitespace) else { return nil }
        return components.url
    }

    /// `url(_:)`, and also a web address typed without a scheme ("www.example.com/me") taken as https://, as a
    /// browser's address bar takes it. Only for reading links others stored: the server keeps to `url(_:)`.
    /// Other schemes (`mailto:`, `ftp:`, `javascript:`), plain words and e-mail addresses stay nil.
    public static func url(asTyped text: String) -> URL? {
        if let url = url(text) { return url }
        guard !startsWithScheme(text), let url = url("https://" + text),
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.user == nil, components.password == nil,
              let host = components.percentEncodedHost?.removingPercentEncoding, isHostName(host) else { return nil }
        return url
    }

    /// "name:" before anything else, except a host's port ("example.com:8080/me"), which a browser reads as a host.
    private static func startsWithScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return false }
        let rest = text[text.index(after: colon)...]
        let port = rest.prefix { $0.isASCII && $0.isNumber }
        let afterPort = rest.dropFirst(port.count)
        let isPort = !port.isEmpty && (afterPort.first.map { "/?#".contains($0) } ?? true)
        return !isPort
    }

    /// A name in the DNS with a top-level domain ("www.example.com", "bücher.de"), not one word or a number.
    private static func isHostName(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }), let topLevel = labels.last,
              topLevel.count >= 2, topLevel.first?.isLetter == true else { return false }
        return topLevel.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }

    /// What a browser leaves as typed in a URL (RFC 3986's unreserved and reserved characters, and `%`).
    private static let browserKept = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
}

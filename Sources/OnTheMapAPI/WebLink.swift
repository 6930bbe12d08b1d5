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

    /// What a browser leaves as typed in a URL (RFC 3986's unreserved and reserved characters, and `%`).
    private static let browserKept = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")
}

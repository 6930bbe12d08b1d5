import Foundation

/// Keeps secrets out of anything that gets logged.
public enum Redaction {
    /// Query parameters whose values are secrets.
    public static let secretParameters: Set<String> = ["api_key", "api_sig", "auth_token", "oauth_token", "oauth_signature"]
    public static let placeholder = "REDACTED"

    /// `url` as text with the values of `api_key` (and other secret parameters) replaced by `REDACTED`.
    public static func redactedDescription(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        components.user = nil
        components.password = nil
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                secretParameters.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: placeholder) : item
            }
        }
        return components.string ?? "<unparseable URL>"
    }

    /// `text` with every occurrence of `secret` replaced, for messages that might echo it back.
    static func scrub(_ text: String, removing secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: placeholder)
    }
}

import Foundation
import Translations

/// Why a typed server address can't be used; each message says what to type instead.
public enum ServerAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    /// Not an http(s) address with a host (or it carries a query, a fragment or a user name).
    case notAWebAddress(String)
    /// Plain `http://` to another computer: passwords would cross the network unencrypted.
    case insecure(host: String)

    public var description: String {
        switch self {
        case .empty:
            tr("Enter the server's address, such as https://onthemap.example.org.")
        case .notAWebAddress(let text):
            // Translators: %@ is what the user typed as the server's address.
            formatted(tr("\"%@\" is not a server address. Enter one like https://onthemap.example.org."), text)
        case .insecure(let host):
            // Translators: %@ is a server's host name, e.g. "onthemap.example.org".
            formatted(tr("%@ must be reached with https://. Plain http:// is only allowed to this computer (localhost, 127.0.0.1, ::1)."), host)
        }
    }
}

/// Where the On the Map API lives: Udacity's by default, or a self-hosted server.
///
/// Every resolved address ends in `/v1/`, so endpoints are relative paths ("session", "StudentLocation").
/// "https://host" and "https://host/" become "https://host/v1/"; "https://host/v1" gains its slash;
/// another path is a prefix (a reverse proxy's folder): "https://host/otm" → "https://host/otm/v1/".
/// Without a scheme, loopback hosts get `http://` and every other host `https://`.
public enum ServerAddress {
    public static let udacity = URL(string: "https://onthemap-api.udacity.com/v1/")!
    /// The environment variable that points the app at another server without a rebuild.
    public static let environmentVariable = "ON_THE_MAP_API_URL"

    public static func resolve(_ text: String) throws(ServerAddressError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        guard !trimmed.contains(where: \.isWhitespace) else { throw .notAWebAddress(trimmed) }
        let withScheme = trimmed.contains("://") ? trimmed : defaultScheme(for: trimmed) + "://" + trimmed
        guard var components = URLComponents(string: withScheme),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil, components.user == nil
        else { throw .notAWebAddress(trimmed) }
        if scheme == "http" && !isLoopback(host: host) { throw .insecure(host: host) }
        components.scheme = scheme
        var path = components.path
        if !path.hasSuffix("/") { path += "/" }
        if !path.hasSuffix("/v1/") { path += "v1/" }
        components.path = path
        guard let url = components.url else { throw .notAWebAddress(trimmed) }
        return url
    }

    /// `ON_THE_MAP_API_URL` when set (and valid), else Udacity's server.
    public static func configured(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerAddressError) -> URL {
        guard let text = environment[environmentVariable],
              !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return udacity }
        return try resolve(text)
    }

    /// `localhost`, 127.0.0.0/8 and ::1 (with or without brackets): traffic that never leaves this computer.
    public static func isLoopback(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host = String(host.dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let isOctet: (Substring) -> Bool = { $0.count <= 3 && $0.allSatisfy { ("0"..."9").contains($0) } && UInt8($0) != nil }
        guard octets.count == 4, octets.allSatisfy(isOctet) else { return false }
        return octets[0] == "127"
    }

    /// "localhost:8080" means this computer's development server; anything else is a real host.
    private static func defaultScheme(for text: String) -> String {
        let host: Substring
        if text.hasPrefix("[") {
            host = text.prefix(through: text.firstIndex(of: "]") ?? text.index(before: text.endIndex))
        } else {
            host = text.prefix { $0 != ":" && $0 != "/" }
        }
        return isLoopback(host: String(host)) ? "http" : "https"
    }
}

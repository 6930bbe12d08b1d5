import Foundation
import Translations

/// The proxies every request of the apps goes through (photos, searches, map tiles, place names), read from
/// the environment as curl reads it, so the apps take the way out people already set up for their tools:
/// - `https_proxy` (or `HTTPS_PROXY`) for https addresses, `http_proxy` for http ones (not `HTTP_PROXY`,
///   which a web server's CGI environment can set from a request's `Proxy:` header);
/// - `all_proxy` (or `ALL_PROXY`) for either, when the specific one is not set;
/// - `no_proxy` (or `NO_PROXY`): hosts and domains that go direct (a domain covers its subdomains),
///   comma-separated, `*` for all.
///
/// A proxy is `[http://|socks5://|socks5h://][user:password@]host[:port]`, port 1080 when none is given.
public struct ProxySettings: Sendable, Hashable {
    /// One proxy server.
    public struct Proxy: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: Sendable, Hashable {
            /// HTTP: plain requests in absolute form, https through `CONNECT`.
            case http
            /// SOCKS5, the proxy resolving names.
            case socks5
        }

        public var kind: Kind
        public var host: String
        public var port: Int
        /// Basic credentials from the proxy's address (HTTP proxies only).
        public var username: String?
        public var password: String?

        public init(kind: Kind = .http, host: String, port: Int, username: String? = nil, password: String? = nil) {
            self.kind = kind
            self.host = host
            self.port = port
            self.username = username
            self.password = password
        }

        /// `host:port`, never the credentials (it goes into messages and logs).
        public var description: String {
            host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    public var http: Proxy?
    public var https: Proxy?
    /// `no_proxy` entries, lowercased, without a leading dot.
    public var directHosts: [String]
    /// `no_proxy=*`: no proxy at all.
    public var directForAll: Bool
    /// Variables that were set but could not be used, with why ("https_proxy: …"), never with a password.
    public var problems: [String]

    public init(http: Proxy? = nil, https: Proxy? = nil, directHosts: [String] = [], directForAll: Bool = false,
                problems: [String] = []) {
        self.http = http
        self.https = https
        self.directHosts = directHosts
        self.directForAll = directForAll
        self.problems = problems
    }

    /// No proxy.
    public static let none = ProxySettings()

    public static func fromEnvironment(_ environment: [String: String]) -> ProxySettings {
        var settings = ProxySettings()
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (name, value)
                }
            }
            return nil
        }
        func proxy(_ found: (name: String, value: String)?) -> Proxy? {
            guard let found else { return nil }
            switch parse(found.value) {
            case .success(let proxy): return proxy
            case .failure(let problem):
                settings.problems.append("\(found.name): \(problem.reason)")
                return nil
            }
        }
        let all = proxy(value("all_proxy", "ALL_PROXY"))
        settings.http = proxy(value("http_proxy")) ?? all
        settings.https = proxy(value("https_proxy", "HTTPS_PROXY")) ?? all
        if let direct = value("no_proxy", "NO_PROXY")?.value {
            let entries = direct.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            settings.directForAll = entries.contains("*")
            settings.directHosts = entries.filter { !$0.isEmpty && $0 != "*" }.map { entry in
                var host = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
                if host.hasSuffix(".") { host.removeLast() }
                return host
            }
        }
        return settings
    }

    /// The proxy a request to `url` goes through, or nil for a direct connection.
    public func proxy(for url: URL) -> Proxy? {
        guard !directForAll, let host = url.host?.lowercased() else { return nil }
        var name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if name.hasSuffix(".") { name.removeLast() }
        // `example.com` covers `example.com` and `photos.example.com`.
        for entry in directHosts {
            let entryHost = entry.hasPrefix("[") && entry.hasSuffix("]") ? String(entry.dropFirst().dropLast()) : entry
            if name == entryHost || name.hasSuffix("." + entryHost) { return nil }
        }
        return url.scheme?.lowercased() == "https" ? https : http
    }

    struct ParseProblem: Error {
        var reason: String
    }

    static func parse(_ text: String) -> Result<Proxy, ParseProblem> {
        let address = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: address), let host = components.host, !host.isEmpty else {
            return .failure(ParseProblem(reason: tr("not a proxy address")))
        }
        let kind: Proxy.Kind
        switch components.scheme?.lowercased() {
        case "http": kind = .http
        case "socks5", "socks5h": kind = .socks5
        case let scheme?:
            // Translators: %@ is a web address scheme such as "ftp"; http:// and socks5:// stay as they are.
            return .failure(ParseProblem(reason: formatted(tr("%@:// proxies are not supported (use http:// or socks5://)"), scheme)))
        case nil:
            return .failure(ParseProblem(reason: tr("not a proxy address")))
        }
        let port = components.port ?? 1080
        guard (1...65535).contains(port) else { return .failure(ParseProblem(reason: tr("the port is out of range"))) }
        if kind == .socks5 && components.user != nil {
            return .failure(ParseProblem(reason: tr("SOCKS proxies with a password are not supported")))
        }
        let unbracketed = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return .success(Proxy(kind: kind, host: unbracketed, port: port,
                              username: components.user?.removingPercentEncoding,
                              password: components.password?.removingPercentEncoding))
    }
}

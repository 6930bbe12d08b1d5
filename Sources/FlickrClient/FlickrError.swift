import Foundation

/// Everything that can go wrong talking to Flickr or downloading its photos, with messages a person can act on.
///
/// No case carries the API key, a request URL or a response body, so descriptions are safe to show and to log.
public enum FlickrError: Error, LocalizedError, Equatable, Hashable, Sendable {
    /// No API key in the environment, the user's settings or the build.
    case missingAPIKey
    /// `stat: fail`, code 100: the key is unknown, expired or malformed.
    case invalidAPIKey
    /// `stat: fail`, code 105.
    case serviceUnavailable
    /// `stat: fail`, code 10: the search back end is down.
    case searchUnavailable
    /// Any other `stat: fail` answer; `message` is Flickr's own text.
    case apiFailure(code: Int, message: String)
    /// A non-2xx HTTP status.
    case httpStatus(Int)
    case timedOut
    /// The computer has no network connection.
    case offline
    /// Nothing answered at `host` (connection refused, unreachable).
    case cannotConnect(host: String)
    /// The name `host` could not be resolved.
    case hostNotFound(host: String)
    /// The connection dropped mid-request.
    case connectionLost
    /// The answer was not Flickr's JSON.
    case invalidResponse(InvalidResponseReason)
    /// A plain `http://` address that is not this computer.
    case insecureEndpoint(host: String)
    /// TLS could not be set up with `host` (certificate, clock, captive portal).
    case secureConnectionFailed(host: String)
    /// The proxy (`host:port`) could not be reached, refused the connection or asked for a password.
    case proxyFailed(proxy: String)
    /// An address that is not an http(s) URL at all.
    case invalidEndpoint(String)
    /// A search the client refuses to send (radius out of range, page < 1, …).
    case invalidSearch(String)
    /// The body was shorter (or longer) than the `Content-Length` the server announced.
    case incompleteDownload(expected: Int64, received: Int64)
    /// The downloaded body is not an image at all (an HTML page, JSON, an unknown format).
    case notAnImage
    /// The body is an image that must not be kept (cut short, damaged, too many pixels).
    case unusableImage(UnusableImageReason)
    /// The body is larger than the photo byte limit; it was not read whole.
    case photoTooLarge(limit: Int)
    /// The server stopped sending bytes for longer than the stall time-out.
    case stalled
    /// Reading or writing a file failed.
    case fileSystem(path: String, reason: String)
    /// The request was cancelled (task or group cancellation).
    case cancelled

    public enum InvalidResponseReason: String, Sendable, Hashable {
        /// The body is not JSON (HTML error page, garbage, truncated).
        case notJSON
        /// `jsonFlickrApi(...)`: the request lacked `nojsoncallback=1`.
        case jsonp
        /// JSON, but not shaped like a Flickr answer (no `stat`, no `photos`).
        case unexpectedStructure
        /// Not an HTTP response.
        case notHTTP
    }

    public enum UnusableImageReason: Sendable, Hashable {
        /// The image ends before its format's end marker: the transfer was cut.
        case truncated
        /// Its header announces more pixels than a photo may have (a decompression bomb, say).
        case tooManyPixels(width: Int, height: Int)
        /// The decoder rejected it.
        case damaged
    }

    /// Whether the same request may well succeed if simply retried shortly, with nothing changed.
    /// The downloader retries exactly these; connectivity problems (offline, cannot connect, host not
    /// found) are not transient in this sense but are worth a Retry button: see `isConnectivityProblem`.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionLost, .serviceUnavailable, .searchUnavailable, .incompleteDownload, .stalled,
             .unusableImage(.truncated):
            return true
        case .httpStatus(let status):
            return status >= 500 || status == 429 || status == 408
        default:
            return false
        }
    }

    /// The network or the server could not be reached at all; trying again later (not now) may help.
    public var isConnectivityProblem: Bool {
        switch self {
        case .offline, .cannotConnect, .hostNotFound, .proxyFailed: return true
        default: return false
        }
    }

    public var errorDescription: String? {
        switch self {
        case .missingAPIKey:
            return "Virtual Tourist has no Flickr API key."
        case .invalidAPIKey:
            return "Flickr rejected the API key."
        case .serviceUnavailable:
            return "Flickr is temporarily unavailable."
        case .searchUnavailable:
            return "Flickr's photo search is temporarily unavailable."
        case .apiFailure(let code, let message):
            let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty
                ? "Flickr couldn't complete the search (error \(code))."
                : "Flickr couldn't complete the search: \(text) (error \(code))."
        case .httpStatus(let status):
            switch status {
            case 429: return "Flickr is receiving too many requests from Virtual Tourist (HTTP 429)."
            case 404, 410: return "Flickr couldn't find what was asked for (HTTP \(status))."
            case 500...: return "Flickr's server ran into a problem (HTTP \(status))."
            default: return "Flickr refused the request (HTTP \(status))."
            }
        case .timedOut:
            return "Flickr took too long to answer."
        case .offline:
            return "This computer is offline."
        case .cannotConnect(let host):
            return "Virtual Tourist couldn't connect to \(host)."
        case .hostNotFound(let host):
            return "Virtual Tourist couldn't find the server \(host)."
        case .connectionLost:
            return "The connection to Flickr was lost."
        case .invalidResponse:
            return "Flickr sent an answer Virtual Tourist couldn't read."
        case .insecureEndpoint(let host):
            return "Virtual Tourist won't contact \(host) over unencrypted HTTP."
        case .secureConnectionFailed(let host):
            return "Virtual Tourist couldn't set up a secure connection to \(host)."
        case .proxyFailed(let proxy):
            return "Virtual Tourist couldn't get through the proxy \(proxy)."
        case .invalidEndpoint(let address):
            return "“\(address)” isn't a web address Virtual Tourist can use."
        case .invalidSearch(let reason):
            return "Virtual Tourist can't send this search: \(reason)."
        case .incompleteDownload(let expected, let received):
            return "The photo download was cut short (\(received) of \(expected) bytes)."
        case .notAnImage:
            return "The photo server sent something that isn't an image."
        case .unusableImage(.truncated):
            return "The photo arrived incomplete."
        case .unusableImage(.tooManyPixels(let width, let height)):
            return "The photo is too large to show (\(width) × \(height) pixels)."
        case .unusableImage(.damaged):
            return "The photo is damaged and can't be shown."
        case .photoTooLarge(let limit):
            return "The photo is larger than \(limit >> 20) MB, too large to download."
        case .stalled:
            return "The photo server stopped sending the photo."
        case .fileSystem(let path, let reason):
            return "Virtual Tourist couldn't write \(path): \(reason)."
        case .cancelled:
            return "The request was cancelled."
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .missingAPIKey:
            return "Add your Flickr API key in Preferences, or set FLICKR_API_KEY."
        case .invalidAPIKey:
            return "Check it in Preferences."
        case .serviceUnavailable, .searchUnavailable:
            return "Try again in a few minutes."
        case .apiFailure:
            return "Try again later. If it keeps happening, Virtual Tourist may need an update."
        case .httpStatus(let status):
            switch status {
            case 429: return "Wait a minute, then try again."
            case 404, 410: return "Try New Collection to fetch other photos."
            case 500...: return "Try again in a few minutes."
            default: return "Check the API key in Preferences and the Flickr address (VIRTUAL_TOURIST_FLICKR_URL)."
            }
        case .timedOut, .connectionLost:
            return "Check your internet connection and try again."
        case .offline:
            return "Connect to the internet and try again."
        case .cannotConnect, .hostNotFound:
            return "Check your internet connection. If it works, check the Flickr address (VIRTUAL_TOURIST_FLICKR_URL)."
        case .invalidResponse(let reason):
            switch reason {
            case .jsonp:
                return "Try again later. If VIRTUAL_TOURIST_FLICKR_URL is set, check that it points at Flickr's REST API "
                    + "(https://api.flickr.com/services/rest/)."
            default:
                return "Try again later. If it keeps happening, check that VIRTUAL_TOURIST_FLICKR_URL points at Flickr's REST API."
            }
        case .insecureEndpoint:
            return "Use an https:// address. Plain http:// is only allowed for this computer (localhost)."
        case .secureConnectionFailed:
            return "Check the computer's date and time, and whether a proxy or a Wi-Fi sign-in page is in the way."
        case .proxyFailed:
            return "Check the proxy settings (https_proxy, http_proxy, no_proxy), and whether the proxy needs a user name "
                + "and password."
        case .invalidEndpoint:
            return "Use an https:// address such as https://api.flickr.com/services/rest/."
        case .invalidSearch:
            return "Choose a search radius above 0 and below 32 km and an album size from 1 to 500."
        case .incompleteDownload, .unusableImage(.truncated), .stalled:
            return "Check your internet connection, then click the photo to try again."
        case .notAnImage, .unusableImage, .photoTooLarge:
            return "Try New Collection to fetch other photos."
        case .fileSystem:
            return "Check that there is free disk space and that the folder is writable."
        case .cancelled:
            return nil
        }
    }

    /// The description and the suggestion in one sentence pair, ready for an in-app notification.
    public var userMessage: String {
        [errorDescription, recoverySuggestion].compactMap { $0 }.joined(separator: " ")
    }
}

extension FlickrError: CustomStringConvertible {
    public var description: String { userMessage }
}

extension FlickrError {
    /// Maps a `stat: fail` answer to its case.
    static func apiFailure(code: Int, flickrMessage: String) -> FlickrError {
        switch code {
        case 100: return .invalidAPIKey
        case 105: return .serviceUnavailable
        case 10: return .searchUnavailable
        default: return .apiFailure(code: code, message: flickrMessage)
        }
    }
}

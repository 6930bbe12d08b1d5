import Foundation
import Translations

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
        let locale = Translations.formattingLocale
        switch self {
        case .missingAPIKey:
            return tr("Virtual Tourist has no Flickr API key.")
        case .invalidAPIKey:
            return tr("Flickr rejected the API key.")
        case .serviceUnavailable:
            return tr("Flickr is temporarily unavailable.")
        case .searchUnavailable:
            return tr("Flickr's photo search is temporarily unavailable.")
        case .apiFailure(let code, let message):
            let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
            // Translators: %d is Flickr's error number.
            if text.isEmpty { return formatted(tr("Flickr couldn't complete the search (error %d)."), code) }
            // Translators: %1$@ is Flickr's own explanation (in English), %2$d its error number.
            return formatted(tr("Flickr couldn't complete the search: %1$@ (error %2$d)."), text, code)
        case .httpStatus(let status):
            switch status {
            case 429: return tr("Flickr is receiving too many requests from Virtual Tourist (HTTP 429).")
            // Translators: %d is an HTTP status code: 404 or 410.
            case 404, 410: return formatted(tr("Flickr couldn't find what was asked for (HTTP %d)."), status)
            // Translators: %d is an HTTP status code such as 503.
            case 500...: return formatted(tr("Flickr's server ran into a problem (HTTP %d)."), status)
            // Translators: %d is an HTTP status code such as 403.
            default: return formatted(tr("Flickr refused the request (HTTP %d)."), status)
            }
        case .timedOut:
            return tr("Flickr took too long to answer.")
        case .offline:
            return tr("This computer is offline.")
        case .cannotConnect(let host):
            // Translators: %@ is a server's name, e.g. "api.flickr.com".
            return formatted(tr("Virtual Tourist couldn't connect to %@."), host)
        case .hostNotFound(let host):
            // Translators: %@ is a server's name, e.g. "api.flickr.com".
            return formatted(tr("Virtual Tourist couldn't find the server %@."), host)
        case .connectionLost:
            return tr("The connection to Flickr was lost.")
        case .invalidResponse:
            return tr("Flickr sent an answer Virtual Tourist couldn't read.")
        case .insecureEndpoint(let host):
            // Translators: %@ is a server's name, e.g. "flickr.example.org".
            return formatted(tr("Virtual Tourist won't contact %@ over unencrypted HTTP."), host)
        case .secureConnectionFailed(let host):
            // Translators: %@ is a server's name, e.g. "live.staticflickr.com".
            return formatted(tr("Virtual Tourist couldn't set up a secure connection to %@."), host)
        case .proxyFailed(let proxy):
            // Translators: %@ is a proxy's address, e.g. "proxy.example.org:3128".
            return formatted(tr("Virtual Tourist couldn't get through the proxy %@."), proxy)
        case .invalidEndpoint(let address):
            // Translators: %@ is the address as the person gave it.
            return formatted(tr("“%@” isn't a web address Virtual Tourist can use."), address)
        case .invalidSearch(let reason):
            // Translators: %@ says what is wrong, e.g. "the page must be 1 or more".
            return formatted(tr("Virtual Tourist can't send this search: %@."), reason)
        case .incompleteDownload(let expected, let received):
            // Translators: %1$@ is how many bytes arrived, %2$@ how many were announced.
            return formatted(tr("The photo download was cut short (%1$@ of %2$@ bytes)."),
                          received.formatted(.number.locale(locale)), expected.formatted(.number.locale(locale)))
        case .notAnImage:
            return tr("The photo server sent something that isn't an image.")
        case .unusableImage(.truncated):
            return tr("The photo arrived incomplete.")
        case .unusableImage(.tooManyPixels(let width, let height)):
            // Translators: %1$@ × %2$@ are the photo's width and height in pixels.
            return formatted(tr("The photo is too large to show (%1$@ × %2$@ pixels)."),
                          width.formatted(.number.locale(locale)), height.formatted(.number.locale(locale)))
        case .unusableImage(.damaged):
            return tr("The photo is damaged and can't be shown.")
        case .photoTooLarge(let limit):
            // Translators: %d is a size in megabytes, e.g. 40.
            return formatted(tr("The photo is larger than %d MB, too large to download."), limit >> 20)
        case .stalled:
            return tr("The photo server stopped sending the photo.")
        case .fileSystem(let path, let reason):
            // Translators: %1$@ is a file or folder, %2$@ why it could not be written, e.g. "No space left on device".
            return formatted(tr("Virtual Tourist couldn't write %1$@: %2$@."), path, reason)
        case .cancelled:
            return tr("The request was cancelled.")
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .missingAPIKey:
            return tr("Add your Flickr API key in Preferences, or set FLICKR_API_KEY.")
        case .invalidAPIKey:
            return tr("Check it in Preferences.")
        case .serviceUnavailable, .searchUnavailable:
            return tr("Try again in a few minutes.")
        case .apiFailure:
            return tr("Try again later. If it keeps happening, Virtual Tourist may need an update.")
        case .httpStatus(let status):
            switch status {
            case 429: return tr("Wait a minute, then try again.")
            case 404, 410: return tr("Try New Collection to fetch other photos.")
            case 500...: return tr("Try again in a few minutes.")
            default: return tr("Check the API key in Preferences and the Flickr address (VIRTUAL_TOURIST_FLICKR_URL).")
            }
        case .timedOut, .connectionLost:
            return tr("Check your internet connection and try again.")
        case .offline:
            return tr("Connect to the internet and try again.")
        case .cannotConnect, .hostNotFound:
            return tr("Check your internet connection. If it works, check the Flickr address (VIRTUAL_TOURIST_FLICKR_URL).")
        case .invalidResponse(let reason):
            switch reason {
            case .jsonp:
                return tr("Try again later. If VIRTUAL_TOURIST_FLICKR_URL is set, check that it points at Flickr's REST API (https://api.flickr.com/services/rest/).")
            default:
                return tr("Try again later. If it keeps happening, check that VIRTUAL_TOURIST_FLICKR_URL points at Flickr's REST API.")
            }
        case .insecureEndpoint:
            return tr("Use an https:// address. Plain http:// is only allowed for this computer (localhost).")
        case .secureConnectionFailed:
            return tr("Check the computer's date and time, and whether a proxy or a Wi-Fi sign-in page is in the way.")
        case .proxyFailed:
            return tr("Check the proxy settings (https_proxy, http_proxy, no_proxy), and whether the proxy needs a user name and password.")
        case .invalidEndpoint:
            return tr("Use an https:// address such as https://api.flickr.com/services/rest/.")
        case .invalidSearch:
            return tr("Choose a search radius above 0 and below 32 km and an album size from 1 to 500.")
        case .incompleteDownload, .unusableImage(.truncated), .stalled:
            return tr("Check your internet connection, then click the photo to try again.")
        case .notAnImage, .unusableImage, .photoTooLarge:
            return tr("Try New Collection to fetch other photos.")
        case .fileSystem:
            return tr("Check that there is free disk space and that the folder is writable.")
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

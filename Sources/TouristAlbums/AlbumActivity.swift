import FlickrClient
import Translations

/// What an album is doing right now; the store says what it holds.
public enum AlbumActivity: Equatable, Sendable {
    /// Nothing is running for this album.
    case idle
    /// Asking Flickr which photos there are.
    case searching
    /// Photos are downloading: `finished` of `total` have arrived or failed.
    case downloading(finished: Int, total: Int)
    /// The search failed; the album is unchanged.
    case failed(AlbumProblem)

    public var isBusy: Bool {
        switch self {
        case .searching, .downloading: return true
        case .idle, .failed: return false
        }
    }
}

/// Why an album could not be fetched, in words for people, and what they can do.
public struct AlbumProblem: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// No key anywhere: the user needs to add one.
        case missingAPIKey
        /// Flickr rejected the key.
        case invalidAPIKey
        /// Network or Flickr trouble that may pass: try again.
        case temporary
        /// Anything else.
        case other
    }

    public var kind: Kind
    public var title: String
    public var message: String

    public init(kind: Kind, title: String, message: String) {
        self.kind = kind
        self.title = title
        self.message = message
    }

    public init(_ error: FlickrError) {
        switch error {
        case .missingAPIKey:
            self.init(kind: .missingAPIKey, title: tr("A Flickr API Key Is Needed"),
                      message: tr("Virtual Tourist finds photos through Flickr, which asks every app for a free API key. Get one at https://www.flickr.com/services/apps/create/ and add it in Preferences."))
        case .invalidAPIKey:
            self.init(kind: .invalidAPIKey, title: tr("Flickr Rejected the API Key"),
                      message: error.userMessage)
        case .offline, .cannotConnect, .hostNotFound, .timedOut, .connectionLost, .serviceUnavailable,
             .searchUnavailable, .httpStatus, .secureConnectionFailed, .proxyFailed:
            self.init(kind: .temporary, title: tr("Photos Could Not Be Loaded"), message: error.userMessage)
        default:
            self.init(kind: .other, title: tr("Photos Could Not Be Loaded"), message: error.userMessage)
        }
    }
}

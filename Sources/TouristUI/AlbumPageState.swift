import TouristAlbums
import TouristStore
import Translations

/// What the album page shows: its photos, or in their place a search under way, "No Images", or a problem with its
/// way out. Decided from the album's rows and what its album service is doing, with no GTK (`AlbumPage.render`).
enum AlbumPageState: Equatable {
    case searching
    case noImages(description: String)
    /// `offersRetry`: Try Again is the way out; otherwise Preferences (an API key problem).
    case problem(icon: String, title: String, description: String, offersRetry: Bool)
    case photos

    /// - parameter failedCount: photos of the album whose download failed.
    /// - parameter photoProblem: why the latest of them failed, if any did.
    init(contents: AlbumContents, activity: AlbumActivity, failedCount: Int, photoProblem: String?) {
        if contents.album == nil {
            if case .failed(let trouble) = activity {
                self = .problem(icon: trouble.kind == .temporary ? "network-error-symbolic" : "dialog-warning-symbolic",
                                title: trouble.title, description: trouble.message,
                                offersRetry: trouble.kind != .missingAPIKey && trouble.kind != .invalidAPIKey)
            } else {
                self = .searching
            }
        } else if contents.photos.isEmpty {
            if activity.isBusy {
                self = .searching
            } else if contents.album?.isEmpty == true, contents.album?.takenYears != nil {
                self = .noImages(description: tr("Nobody has shared photos taken near this place at that time. Choose another time."))
            } else if contents.album?.isEmpty == true {
                self = .noImages(description: tr("Nobody has shared photos taken near this place on Flickr yet. Try a pin nearby."))
            } else {
                self = .noImages(description: tr("You removed every photo of this album. New Collection brings others taken nearby."))
            }
        } else if !activity.isBusy, failedCount == contents.photos.count, let photoProblem {
            // Not one photo came: the reason (a certificate, the network) is the same for all of them.
            self = .problem(icon: "network-error-symbolic", title: tr("No Photos Could Be Downloaded"),
                            description: photoProblem, offersRetry: true)
        } else {
            self = .photos
        }
    }

    /// The page's name in the album page's stack.
    var pageName: String {
        switch self {
        case .searching: return "searching"
        case .noImages: return "no-images"
        case .problem: return "problem"
        case .photos: return "photos"
        }
    }
}

extension AlbumActivity {
    /// The album page's status line: what is under way, else how many photos the album has and how many failed.
    func statusText(photoCount: Int, failed: Int) -> String {
        let locale = Translations.formattingLocale
        switch self {
        case .searching: return tr("Looking for photos…")
        case .downloading(let finished, let total):
            // Translators: the album's progress, e.g. "Downloading 3 of 30…" (photos).
            return formatted(tr("Downloading %1$@ of %2$@…"),
                          finished.formatted(.number.locale(locale)), total.formatted(.number.locale(locale)))
        case .idle, .failed:
            guard photoCount > 0 else { return "" }
            let count = photoCount.formatted(.number.locale(locale))
            guard failed > 0 else { return formatted(trn("%@ photo", "%@ photos", photoCount), count) }
            // Translators: %1$@ is the album's number of photos (the plural follows it), %2$@ how many of them
            // could not be downloaded, e.g. "30 photos, 2 could not be downloaded".
            return formatted(trn("%1$@ photo, %2$@ could not be downloaded", "%1$@ photos, %2$@ could not be downloaded",
                                      photoCount), count, failed.formatted(.number.locale(locale)))
        }
    }
}

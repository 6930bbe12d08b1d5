import Foundation
import Translations

/// Flickr's photo licenses by the id `extras=license` sends (the list `flickr.photos.licenses.getInfo`
/// answers), for showing who may use a photo and how.
public enum FlickrLicense {
    /// The license's usual short name, or nil for an id Flickr has not defined.
    public static func name(of id: String?) -> String? {
        guard let id = id?.trimmingCharacters(in: .whitespaces), let number = Int(id) else { return nil }
        switch number {
        case 0: return tr("All rights reserved")
        // Creative Commons codes read the same in every language.
        case 1: return "CC BY-NC-SA 2.0"
        case 2: return "CC BY-NC 2.0"
        case 3: return "CC BY-NC-ND 2.0"
        case 4: return "CC BY 2.0"
        case 5: return "CC BY-SA 2.0"
        case 6: return "CC BY-ND 2.0"
        case 7: return tr("No known copyright restrictions")
        case 8: return tr("United States Government Work")
        // Translators: a Creative Commons license; keep "CC0 1.0" as it is.
        case 9: return tr("CC0 1.0 (public domain dedication)")
        // Translators: the name of a Creative Commons tool; use Creative Commons' own translation if there is one.
        case 10: return tr("Public Domain Mark 1.0")
        default: return nil
        }
    }
}

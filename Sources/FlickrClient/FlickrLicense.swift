import Foundation

/// Flickr's photo licenses by the id `extras=license` sends (the list `flickr.photos.licenses.getInfo`
/// answers), for showing who may use a photo and how.
public enum FlickrLicense {
    /// The license's usual short name, or nil for an id Flickr has not defined.
    public static func name(of id: String?) -> String? {
        guard let id = id?.trimmingCharacters(in: .whitespaces), let number = Int(id) else { return nil }
        switch number {
        case 0: return "All rights reserved"
        case 1: return "CC BY-NC-SA 2.0"
        case 2: return "CC BY-NC 2.0"
        case 3: return "CC BY-NC-ND 2.0"
        case 4: return "CC BY 2.0"
        case 5: return "CC BY-SA 2.0"
        case 6: return "CC BY-ND 2.0"
        case 7: return "No known copyright restrictions"
        case 8: return "United States Government Work"
        case 9: return "CC0 1.0 (public domain dedication)"
        case 10: return "Public Domain Mark 1.0"
        default: return nil
        }
    }
}

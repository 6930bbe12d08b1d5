import Foundation
import Translations

/// Why a places file was refused as a whole, or could not be written.
public enum PlaceFileError: Error, Equatable, Sendable {
    /// The file could not be read; the system's explanation.
    case unreadable(String)
    /// Over `PlaceFileReader.maximumFileBytes`, as a file or as a KMZ's unpacked KML.
    case tooLarge
    case tooManyPlaces(limit: Int)
    case unknownFormat
    /// What the parser said, with the line where known.
    case malformed(String)
    /// A DOCTYPE or ENTITY declaration: the way in for entity expansion bombs and external entities.
    case declarationsRefused
    case coordinateOutOfRange(placeName: String?, latitude: Double, longitude: Double)
    case noPlaces
    /// A KMZ archive could not be built in memory; the archiver's explanation.
    case unwritable(String)

    /// What happened and what to do, in the user's language.
    public var userMessage: String {
        let locale = Translations.formattingLocale
        switch self {
        case .unreadable(let detail):
            return formatted(tr("Virtual Tourist could not read the file (%@). Check that it still exists and that you may read it."), detail)
        case .tooLarge:
            return tr("The file is larger than 64 MB, more than any places file needs. Nothing was imported.")
        case .tooManyPlaces(let limit):
            return formatted(tr("The file holds more than %d places, more than Virtual Tourist imports at once. Nothing was imported; split the file and import the parts."), limit)
        case .unknownFormat:
            return tr("Virtual Tourist does not recognise this file. It reads GPX, KML, KMZ and GeoJSON files. Nothing was imported.")
        case .malformed(let detail):
            return formatted(tr("The file is damaged or is not a places file (%@). Nothing was imported."), detail)
        case .declarationsRefused:
            return tr("This file declares XML entities, which Virtual Tourist does not read. Nothing was imported.")
        case .coordinateOutOfRange(let name?, let latitude, let longitude):
            return formatted(tr("The place “%@” lies off the map (latitude %@, longitude %@). Nothing was imported; correct the file and try again."), name, latitude.formatted(.number.locale(locale)), longitude.formatted(.number.locale(locale)))
        case .coordinateOutOfRange(nil, let latitude, let longitude):
            return formatted(tr("A place lies off the map (latitude %@, longitude %@). Nothing was imported; correct the file and try again."), latitude.formatted(.number.locale(locale)), longitude.formatted(.number.locale(locale)))
        case .noPlaces:
            return tr("The file holds no places. Nothing was imported.")
        case .unwritable(let detail):
            return formatted(tr("Virtual Tourist could not build the file (%@). Nothing was exported."), detail)
        }
    }
}

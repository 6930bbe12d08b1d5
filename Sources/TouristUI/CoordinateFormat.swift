import Foundation
import Translations

/// Coordinates as people read them: "48.8584° N, 2.2945° E" (in German "48,8584° N, 2,2945° O").
enum CoordinateFormat {
    static func string(latitude: Double, longitude: Double) -> String {
        // Translators: a place's coordinates: %1$@ its latitude, e.g. "48.8584° N", %2$@ its longitude, e.g. "2.2945° E".
        formatted(tr("%1$@, %2$@"),
               component(latitude, .latitude), component(longitude, .longitude))
    }

    private enum Axis { case latitude, longitude }

    private static func component(_ value: Double, _ axis: Axis) -> String {
        let rounded = (abs(value) * 10_000).rounded() / 10_000
        let degrees = rounded.formatted(.number.precision(.fractionLength(4)).grouping(.never)
            .locale(Translations.formattingLocale))
        let format: String
        switch (rounded == 0, axis, value >= 0) {
        // Translators: on the equator or the prime meridian (no hemisphere); %@ is "0.0000".
        case (true, _, _): format = tr("%@°")
        // Translators: a latitude north of the equator; %@ is its degrees, e.g. "48.8584". N for north.
        case (false, .latitude, true): format = tr("%@° N")
        // Translators: a latitude south of the equator; %@ is its degrees, e.g. "33.8688". S for south.
        case (false, .latitude, false): format = tr("%@° S")
        // Translators: a longitude east of Greenwich; %@ is its degrees, e.g. "2.2945". E for east.
        case (false, .longitude, true): format = tr("%@° E")
        // Translators: a longitude west of Greenwich; %@ is its degrees, e.g. "74.0445". W for west.
        case (false, .longitude, false): format = tr("%@° W")
        }
        return formatted(format, degrees)
    }
}

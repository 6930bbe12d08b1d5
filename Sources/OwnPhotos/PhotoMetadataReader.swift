import CGexiv2
import Foundation

/// Reads a photo's position, time and orientation with libgexiv2. Opens the file read-only; never writes it.
public enum PhotoMetadataReader {
    public enum Outcome: Equatable, Sendable {
        case photo(OwnPhoto)
        /// An image without a usable GPS position (none, or 0°, 0° — what cameras write without a fix).
        case noPosition
        /// Not a whole picture the album can show: one gexiv2 cannot open (broken, or another kind of file with a photo's
        /// name), a truncated one (`WholePicture`), or a format gdk-pixbuf cannot decode here.
        case unreadable
        /// Larger than `maximumFileBytes`: skipped without opening.
        case tooLarge
    }

    /// Larger files are skipped unopened: no camera writes a still this big, and a video renamed .jpg should not stall a scan.
    public static let maximumFileBytes: Int64 = 512 * 1024 * 1024

    public static func read(path: String, size: Int64) -> Outcome {
        read(path: path, size: size, maximumFileBytes: maximumFileBytes)
    }

    static func read(path: String, size: Int64, maximumFileBytes: Int64) -> Outcome {
        guard size <= maximumFileBytes else { return .tooLarge }
        guard libraryReady else { return .unreadable }
        guard let metadata = gexiv2_metadata_new() else { return .unreadable }
        defer { g_object_unref(metadata) }
        var error: UnsafeMutablePointer<GError>?
        guard gexiv2_metadata_open_path(metadata, path, &error) != 0 else {
            g_clear_error(&error)
            return .unreadable
        }
        guard WholePicture.check(path: path, size: size) else { return .unreadable }
        var latitude = 0.0
        var longitude = 0.0
        // Each applies its reference (S and W negative); try_get_gps_info would also demand an altitude.
        let hasLatitude = gexiv2_metadata_try_get_gps_latitude(metadata, &latitude, &error) != 0
        g_clear_error(&error)
        let hasLongitude = gexiv2_metadata_try_get_gps_longitude(metadata, &longitude, &error) != 0
        g_clear_error(&error)
        guard hasLatitude, hasLongitude, latitude.isFinite, longitude.isFinite,
              abs(latitude) <= 90, abs(longitude) <= 180, !(latitude == 0 && longitude == 0) else {
            return .noPosition
        }
        let orientation = Int(gexiv2_metadata_try_get_orientation(metadata, &error).rawValue)
        g_clear_error(&error)
        let takenAt = tagString(metadata, "Exif.Photo.DateTimeOriginal").flatMap(ExifDate.parse)
        return .photo(OwnPhoto(path: path, latitude: latitude, longitude: longitude, takenAt: takenAt,
                               orientation: (1...8).contains(orientation) ? orientation : 1))
    }

    private static func tagString(_ metadata: UnsafeMutablePointer<GExiv2Metadata>, _ tag: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard gexiv2_metadata_try_has_tag(metadata, tag, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }
        let value = gexiv2_metadata_try_get_tag_string(metadata, tag, &error)
        g_clear_error(&error)
        guard let value else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// gexiv2_initialize once per process (a Swift static is initialised once, thread-safely); exiv2's own
    /// warnings about broken files are muted, the outcome says enough.
    private static let libraryReady: Bool = {
        gexiv2_log_set_level(GEXIV2_LOG_LEVEL_MUTE)
        return gexiv2_initialize() != 0
    }()
}

/// EXIF's "YYYY:MM:DD HH:MM:SS", the camera's wall clock without a zone.
enum ExifDate {
    /// The wall clock read as if it were UTC, so it sorts and shows (in UTC) exactly as the file says, on any machine.
    static func parse(_ text: String) -> Date? {
        let digits = text.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" || $0 == "T" })
        guard digits.count >= 6 else { return nil }
        let numbers = digits.prefix(6).compactMap { Int($0) }
        guard numbers.count == 6, numbers[0] > 1800, (1...12).contains(numbers[1]), (1...31).contains(numbers[2]),
              (0...23).contains(numbers[3]), (0...59).contains(numbers[4]), (0...60).contains(numbers[5]) else { return nil }
        var components = DateComponents()
        components.year = numbers[0]
        components.month = numbers[1]
        components.day = numbers[2]
        components.hour = numbers[3]
        components.minute = numbers[4]
        components.second = numbers[5]
        return utcCalendar.date(from: components)
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

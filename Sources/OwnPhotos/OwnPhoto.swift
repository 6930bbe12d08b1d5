import Foundation

/// One of the user's own photos with a GPS position, as the index knows it. The file is never written.
public struct OwnPhoto: Equatable, Sendable {
    /// Absolute path of the file.
    public var path: String
    public var latitude: Double
    public var longitude: Double
    /// When it was taken (EXIF DateTimeOriginal), if the file says.
    public var takenAt: Date?
    /// EXIF orientation, 1–8 (1 = upright).
    public var orientation: Int

    public init(path: String, latitude: Double, longitude: Double, takenAt: Date?, orientation: Int) {
        self.path = path
        self.latitude = latitude
        self.longitude = longitude
        self.takenAt = takenAt
        self.orientation = orientation
    }
}

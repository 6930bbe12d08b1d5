import Foundation
import GRDB

/// One Flickr photo in a pin's album, and where its downloaded file lives.
public struct Photo: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable, Sendable {
    /// Nil until the photo is inserted.
    public var id: Int64?
    public var pinId: Int64
    public var flickrId: String
    /// Where to download the image from.
    public var remoteURL: String
    /// The downloaded file, relative to the data folder (e.g. `photos/7/52123_abc.jpg`); nil until downloaded.
    public var filePath: String?
    public var ownerId: String?
    public var ownerName: String?
    public var title: String?
    /// A bigger size for the photo viewer, fetched only when the photo is viewed; nil if Flickr has none.
    public var largeURL: String?
    /// Flickr's license id ("4" is CC BY 2.0; see `PhotoLicense`).
    public var license: String?
    /// Order in the album, ascending.
    public var position: Int
    public var createdAt: Date

    public init(
        id: Int64? = nil,
        pinId: Int64,
        flickrId: String,
        remoteURL: String,
        filePath: String? = nil,
        ownerId: String? = nil,
        ownerName: String? = nil,
        title: String? = nil,
        largeURL: String? = nil,
        license: String? = nil,
        position: Int,
        createdAt: Date = Date()
    ) {
        self.id = id
        self.pinId = pinId
        self.flickrId = flickrId
        self.remoteURL = remoteURL
        self.filePath = filePath
        self.ownerId = ownerId
        self.ownerName = ownerName
        self.title = title
        self.largeURL = largeURL
        self.license = license
        self.position = position
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case pinId = "pin_id"
        case flickrId = "flickr_id"
        case remoteURL = "remote_url"
        case filePath = "file_path"
        case ownerId = "owner_id"
        case ownerName = "owner_name"
        case title
        case largeURL = "large_url"
        case license
        case position
        case createdAt = "created_at"
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let pinId = Column(CodingKeys.pinId)
        public static let flickrId = Column(CodingKeys.flickrId)
        public static let remoteURL = Column(CodingKeys.remoteURL)
        public static let filePath = Column(CodingKeys.filePath)
        public static let ownerId = Column(CodingKeys.ownerId)
        public static let ownerName = Column(CodingKeys.ownerName)
        public static let title = Column(CodingKeys.title)
        public static let largeURL = Column(CodingKeys.largeURL)
        public static let license = Column(CodingKeys.license)
        public static let position = Column(CodingKeys.position)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    public static let databaseTableName = "photo"

    /// The pin whose album holds this photo.
    public static let pin = belongsTo(Pin.self)

    /// The pin whose album holds this photo.
    public var pin: QueryInterfaceRequest<Pin> {
        request(for: Photo.pin)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

import Foundation

/// One student's posted location and link, as `GET /v1/StudentLocation` lists it.
public struct StudentLocation: Codable, Hashable, Sendable {
    public var objectId: String
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Date
    public var updatedAt: Date

    public init(objectId: String, uniqueKey: String, firstName: String, lastName: String, mapString: String,
                mediaURL: String, latitude: Double, longitude: Double, createdAt: Date, updatedAt: Date) {
        self.objectId = objectId
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(objectId: String, posting: StudentLocationPosting, createdAt: Date, updatedAt: Date) {
        self.init(objectId: objectId, uniqueKey: posting.uniqueKey, firstName: posting.firstName,
                  lastName: posting.lastName, mapString: posting.mapString, mediaURL: posting.mediaURL,
                  latitude: posting.latitude, longitude: posting.longitude, createdAt: createdAt, updatedAt: updatedAt)
    }

    /// The fields a client sends; what `POST` creates and `PUT` replaces.
    public var posting: StudentLocationPosting {
        StudentLocationPosting(uniqueKey: uniqueKey, firstName: firstName, lastName: lastName, mapString: mapString,
                               mediaURL: mediaURL, latitude: latitude, longitude: longitude)
    }
}

/// The body of `POST /v1/StudentLocation` and `PUT /v1/StudentLocation/{objectId}`.
public struct StudentLocationPosting: Codable, Hashable, Sendable {
    public var uniqueKey: String
    public var firstName: String
    public var lastName: String
    public var mapString: String
    public var mediaURL: String
    public var latitude: Double
    public var longitude: Double

    public init(uniqueKey: String, firstName: String, lastName: String, mapString: String, mediaURL: String,
                latitude: Double, longitude: Double) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `GET /v1/StudentLocation` → `{"results": [...]}`.
public struct StudentLocationList: Codable, Hashable, Sendable {
    public var results: [StudentLocation]
    public init(results: [StudentLocation]) { self.results = results }
}

/// `POST /v1/StudentLocation` → `{"createdAt": …, "objectId": …}`.
public struct StudentLocationCreated: Codable, Hashable, Sendable {
    public var createdAt: Date
    public var objectId: String
    public init(createdAt: Date, objectId: String) {
        self.createdAt = createdAt
        self.objectId = objectId
    }
}

/// `PUT /v1/StudentLocation/{objectId}` → `{"updatedAt": …}`.
public struct StudentLocationUpdated: Codable, Hashable, Sendable {
    public var updatedAt: Date
    public init(updatedAt: Date) { self.updatedAt = updatedAt }
}

/// The `order` query parameter: oldest or newest update first.
public enum StudentLocationOrder: String, Codable, Sendable, CaseIterable {
    case updatedAt
    case newestFirst = "-updatedAt"
}

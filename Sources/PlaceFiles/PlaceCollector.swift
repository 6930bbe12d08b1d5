import PlainText

/// The places a reader has found so far: each checked on the map, never more than the limit kept.
struct PlaceCollector {
    let limit: Int
    private(set) var places: [PlaceRecord] = []
    var passedOver = 0

    init(limit: Int = PlaceFileReader.maximumPlaces) {
        self.limit = limit
    }

    /// Adds `place` under its name made plain (one line, no text-reversing controls, capped).
    mutating func add(_ place: PlaceRecord) throws(PlaceFileError) {
        var place = place
        place.name = PlainText.nonEmptyName(place.name)
        try Self.check(place)
        guard places.count < limit else { throw .tooManyPlaces(limit: limit) }
        places.append(place)
    }

    static func check(_ place: PlaceRecord) throws(PlaceFileError) {
        guard place.latitude.isFinite, place.longitude.isFinite,
              (-90.0...90.0).contains(place.latitude), (-180.0...180.0).contains(place.longitude) else {
            throw .coordinateOutOfRange(placeName: place.name, latitude: place.latitude, longitude: place.longitude)
        }
    }

    func contents(format: PlaceFileFormat) throws(PlaceFileError) -> PlaceFileContents {
        guard !places.isEmpty else { throw .noPlaces }
        return PlaceFileContents(format: format, places: places, passedOver: passedOver)
    }
}

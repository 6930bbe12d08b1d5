import FlickrClient

/// Photos as their download's check decoded them, kept briefly for the album grid so that each
/// downloaded photo is decoded once. Bounded: the oldest go first (the grid then decodes the file).
@MainActor
final class DecodedPhotoShelf {
    private let capacity: Int
    private var items: [Int64: any DecodedPhoto] = [:]
    private var order: [Int64] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    func put(_ decoded: any DecodedPhoto, photoID: Int64) {
        if items.updateValue(decoded, forKey: photoID) == nil { order.append(photoID) }
        while order.count > capacity {
            items.removeValue(forKey: order.removeFirst())
        }
    }

    /// The photo's decode, handed over once.
    func take(_ photoID: Int64) -> (any DecodedPhoto)? {
        guard let decoded = items.removeValue(forKey: photoID) else { return nil }
        order.removeAll { $0 == photoID }
        return decoded
    }

    var count: Int { items.count }

    var photoIDs: Set<Int64> { Set(order) }
}

/// Choosing what New Collection shows next.
public enum AlbumPaging {
    /// Flickr serves only the first 4,000 results of any query.
    public static let reachableResults = 4000

    /// The last page that can be asked for: `min(pages, 4000 / perPage)`, and at least 1.
    public static func lastReachablePage(pages: Int, perPage: Int) -> Int {
        guard perPage > 0 else { return 1 }
        return max(1, min(pages, reachableResults / perPage))
    }

    /// A random page in `1...lastReachablePage`, never `currentPage` when another page exists.
    public static func randomPage<Generator: RandomNumberGenerator>(pages: Int, perPage: Int, currentPage: Int?,
                                                                    using generator: inout Generator) -> Int {
        let last = lastReachablePage(pages: pages, perPage: perPage)
        guard last > 1 else { return 1 }
        guard let currentPage, (1...last).contains(currentPage) else {
            return Int.random(in: 1...last, using: &generator)
        }
        // Draw among the other pages, then step over the current one: uniform over the rest.
        let draw = Int.random(in: 1...(last - 1), using: &generator)
        return draw >= currentPage ? draw + 1 : draw
    }

    /// `randomPage` with the system's random number generator.
    public static func randomPage(pages: Int, perPage: Int, currentPage: Int?) -> Int {
        var generator = SystemRandomNumberGenerator()
        return randomPage(pages: pages, perPage: perPage, currentPage: currentPage, using: &generator)
    }

    /// Up to `limit` of `photos`, unseen ones first (in the page's order), topped up with already-seen
    /// ones (in the page's order) only when there aren't enough unseen. Duplicate ids are dropped.
    /// - Parameter seen: ids already shown in, or deleted from, this album.
    public static func preferringUnseen<Item: Identifiable>(_ photos: [Item], seen: Set<Item.ID>, limit: Int) -> [Item] {
        guard limit > 0 else { return [] }
        var unseen: [Item] = []
        var seenAgain: [Item] = []
        var ids = Set<Item.ID>()
        for photo in photos where ids.insert(photo.id).inserted {
            if seen.contains(photo.id) { seenAgain.append(photo) } else { unseen.append(photo) }
        }
        return Array((unseen + seenAgain).prefix(limit))
    }
}

import Foundation
import GRDB

extension AppDatabase {
    /// The user's own photos removed from a pin's album (their absolute paths): the album no longer shows them.
    public func hiddenOwnPhotos(ofPin pinId: Int64) throws -> Set<String> {
        try read { db in
            Set(try String.fetchAll(db, sql: "SELECT path FROM hidden_own_photo WHERE pin_id = ?", arguments: [pinId]))
        }
    }

    /// The own photos removed from each of these pins' albums (My Places leaves them out of its counts).
    public func hiddenOwnPhotos(ofPins pinIds: [Int64]) throws -> [Int64: Set<String>] {
        guard !pinIds.isEmpty else { return [:] }
        return try read { db in
            var hidden: [Int64: Set<String>] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT pin_id, path FROM hidden_own_photo WHERE pin_id IN (SELECT value FROM json_each(?))",
                                        arguments: [String(decoding: try JSONEncoder().encode(pinIds), as: UTF8.self)])
            for row in rows { hidden[row["pin_id"], default: []].insert(row["path"]) }
            return hidden
        }
    }

    /// Removes an own photo from the pin's album, or puts it back (`hidden` false); the file is never touched.
    public func setOwnPhoto(_ path: String, hidden: Bool, inAlbumOfPin pinId: Int64) throws {
        try write { db in
            if hidden {
                try db.execute(sql: "INSERT OR IGNORE INTO hidden_own_photo(pin_id, path) VALUES (?, ?)", arguments: [pinId, path])
            } else {
                try db.execute(sql: "DELETE FROM hidden_own_photo WHERE pin_id = ? AND path = ?", arguments: [pinId, path])
            }
        }
    }
}

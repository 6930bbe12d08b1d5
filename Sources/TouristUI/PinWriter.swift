import Dispatch
import Foundation
import TouristStore

/// A pin's store identity as the writer learns it: known at once for stored pins, after the insert
/// for a pin just dropped. Read and written only on the writer's queue.
final class PinTicket: @unchecked Sendable {
    // @unchecked: `id` is confined to PinWriter's serial queue.
    var id: Int64?
    init(id: Int64? = nil) { self.id = id }
}

/// Writes pin changes off the main thread, in the order they were made: a move issued right after
/// a drop waits for the drop's insert, so it always finds its row.
final class PinWriter: Sendable {
    private let store: any PinStore
    private let queue = DispatchQueue(label: "VirtualTourist.PinWriter")

    init(store: any PinStore) { self.store = store }

    func insert(latitude: Double, longitude: Double,
                completion: @escaping @MainActor @Sendable (Result<Pin, Error>) -> Void) -> PinTicket {
        let ticket = PinTicket()
        queue.async { [store] in
            let result = Result { try store.insertPin(latitude: latitude, longitude: longitude) }
            if case .success(let pin) = result { ticket.id = pin.id }
            Task { @MainActor in completion(result) }
        }
        return ticket
    }

    /// Moves the pin; `clearingAlbum` also empties its album (photos near the old place).
    /// The completion gets the pin's id.
    func move(_ ticket: PinTicket, latitude: Double, longitude: Double, clearingAlbum: Bool,
              completion: @escaping @MainActor @Sendable (Result<Int64, Error>) -> Void) {
        queue.async { [store] in
            guard let id = ticket.id else { return } // its insert failed and was reported
            let result = Result {
                try store.movePin(id: id, latitude: latitude, longitude: longitude, clearingAlbum: clearingAlbum)
                return id
            }
            Task { @MainActor in completion(result) }
        }
    }

    func perform<Value: Sendable>(_ work: @escaping @Sendable (any PinStore) throws -> Value,
                                  completion: @escaping @MainActor @Sendable (Result<Value, Error>) -> Void) {
        queue.async { [store] in
            let result = Result { try work(store) }
            Task { @MainActor in completion(result) }
        }
    }

    /// Blocks until every queued write has run (used on quit).
    func waitUntilIdle() {
        queue.sync {}
    }
}

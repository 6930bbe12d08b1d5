import TouristStore

/// What the map's pins need from the store.
public protocol PinStore: Sendable {
    func insertPin(latitude: Double, longitude: Double) throws -> Pin
    /// Moves the pin; `clearingAlbum` also forgets its album (photos, files, what was seen) in the
    /// same transaction: it is somewhere else now.
    func movePin(id: Int64, latitude: Double, longitude: Double, clearingAlbum: Bool) throws
    /// Deletes the pin and its photos at once but keeps their files until the deletion is finished.
    func deletePinForUndo(id: Int64) throws -> PinDeletion
    /// Puts the pin and its photos back exactly as they were.
    func undoPinDeletion(_ deletion: PinDeletion) throws
    /// The undo window has closed: the files go for good.
    func finishPinDeletion(_ deletion: PinDeletion) throws
    /// `transform` runs off the main thread; only values that differ from the last reach `onChange`.
    /// Not run again when only names change.
    @MainActor
    func observePinPositions<Value: Equatable & Sendable>(_ transform: @escaping @Sendable ([PinPosition]) -> Value,
                                                          onError: @escaping @MainActor (Error) -> Void,
                                                          onChange: @escaping @MainActor (Value) -> Void) -> StoreObservation
    /// As `observePinPositions`, for names; not run again when only positions change.
    @MainActor
    func observePinNames<Value: Equatable & Sendable>(_ transform: @escaping @Sendable ([PinNaming]) -> Value,
                                                      onError: @escaping @MainActor (Error) -> Void,
                                                      onChange: @escaping @MainActor (Value) -> Void) -> StoreObservation
}

extension AppDatabase: PinStore {}

import Foundation
import GRDB

/// Where a pin is: what a map needs of it.
public struct PinPosition: FetchableRecord, Equatable, Sendable {
    public let id: Int64
    public let latitude: Double
    public let longitude: Double

    public init(id: Int64, latitude: Double, longitude: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads `SELECT id, latitude, longitude` by position: no per-row column lookup for big libraries.
    public init(row: Row) {
        id = row[0]
        latitude = row[1]
        longitude = row[2]
    }
}

/// What a pin is called, and where the name came from (nil until it has one).
public struct PinNaming: FetchableRecord, Equatable, Sendable {
    public let id: Int64
    public let placeName: String?
    public let source: PlaceNameSource?

    public init(id: Int64, placeName: String?, source: PlaceNameSource?) {
        self.id = id
        self.placeName = placeName
        self.source = source
    }

    /// Reads `SELECT id, place_name, place_name_source` by position.
    public init(row: Row) {
        id = row[0]
        placeName = row[1]
        source = (row[2] as String?).flatMap(PlaceNameSource.init(rawValue:))
    }
}

// MARK: - Observations on the main actor

extension AppDatabase {
    /// Delivers `transform(every pin's position)`, run on a database thread, on the main actor now and when it
    /// changes; it selects only the position columns so that GRDB does not run it again when names are written.
    @MainActor
    public func observePinPositions<Value: Equatable & Sendable>(
        _ transform: @escaping @Sendable ([PinPosition]) -> Value,
        onError: @escaping @MainActor (Error) -> Void,
        onChange: @escaping @MainActor (Value) -> Void) -> StoreObservation {
        observeEveryPin(Pin.select(Pin.Columns.id, Pin.Columns.latitude, Pin.Columns.longitude),
                        transform, onError: onError, onChange: onChange)
    }

    /// Delivers `transform(every pin's name)` on the main actor now and after each change that alters
    /// it; a pin nudged (which keeps its name) does not run it again. Read and transformed on a database thread.
    @MainActor
    public func observePinNames<Value: Equatable & Sendable>(
        _ transform: @escaping @Sendable ([PinNaming]) -> Value,
        onError: @escaping @MainActor (Error) -> Void,
        onChange: @escaping @MainActor (Value) -> Void) -> StoreObservation {
        observeEveryPin(Pin.select(Pin.Columns.id, Pin.Columns.placeName, Pin.Columns.placeNameSource),
                        transform, onError: onError, onChange: onChange)
    }

    /// `transform(the selected columns of every pin, by id)`, read and transformed on a database thread,
    /// delivered on the main actor when it differs from the last value.
    @MainActor
    private func observeEveryPin<Record: FetchableRecord & Sendable, Value: Equatable & Sendable>(
        _ selection: QueryInterfaceRequest<Pin>,
        _ transform: @escaping @Sendable ([Record]) -> Value,
        onError: @escaping @MainActor (Error) -> Void,
        onChange: @escaping @MainActor (Value) -> Void) -> StoreObservation {
        let request = selection.order(Pin.Columns.id).asRequest(of: Record.self)
        let observation = ValueObservation
            .tracking { db in transform(try request.fetchAll(db)) }
            .removeDuplicates()
        return StoreObservation(observation.start(in: reader, onError: onError, onChange: onChange))
    }
}

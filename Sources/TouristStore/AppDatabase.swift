import Dispatch
import Foundation
import GRDB
import PlainText

/// The app's database: pins, their photo albums, the saved viewport and window state,
/// and the photo files on disk that follow the `photo` rows.
///
/// All methods are synchronous, thread-safe, and throw `StoreError`; call them off the main thread.
/// Every write runs in one transaction; files released by it are unlinked after it commits.
public final class AppDatabase: Sendable {
    /// Photo files live in this folder of the data folder; `Photo.filePath` values start with it.
    public static let photosFolderName = "photos"

    /// The folder `Photo.filePath` values are relative to.
    public let dataFolder: URL

    // The database file, or nil for an in-memory database; used in error messages.
    let databaseURL: URL?

    // Internal for the extensions in other files; writes go through `write(_:)`.
    let dbWriter: any DatabaseWriter

    // Serial, so background-save completions arrive in the order of the saves.
    private let completionQueue = DispatchQueue(label: "VirtualTourist.AppDatabase.completions")

    /// Wraps an open database, migrates it, and unlinks files left pending by an interrupted run.
    ///
    /// - parameter writer: a database created with `AppDatabase.makeConfiguration()`.
    /// - parameter dataFolder: the folder `Photo.filePath` values are relative to.
    public init(_ writer: any DatabaseWriter, dataFolder: URL) throws {
        self.dbWriter = writer
        self.dataFolder = dataFolder
        self.databaseURL = writer.path.hasPrefix("/") ? URL(fileURLWithPath: writer.path) : nil
        try wrapErrors { try Self.migrator.migrate(writer) }
        // No undo window outlives the process that opened it: held files go now.
        try write { db in try db.execute(sql: "UPDATE pending_file_deletion SET held_by = NULL") }
    }

    /// Opens (creating if needed) the database at `paths.databaseURL`; nothing here grows with the library
    /// (the orphan sweep runs in the background after start-up).
    /// - parameter emptyingStaging: false until it is known that no other instance is downloading.
    public static func open(paths: AppPaths, emptyingStaging: Bool = true) throws -> AppDatabase {
        let database = try openFolders(paths: paths)
        if emptyingStaging { try emptyStagingFolder(paths: paths) }
        return database
    }

    /// Downloads a killed run left half-way are all in one folder: emptying it is the whole clean-up.
    /// Only the one running instance of the app may do it, before it downloads anything.
    public static func emptyStagingFolder(paths: AppPaths) throws {
        try? FileManager.default.removeItem(at: paths.stagingFolder)
        do {
            try FileManager.default.createDirectory(
                at: paths.stagingFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(error, folder: paths.stagingFolder, databaseURL: nil)
        }
    }

    private static func openFolders(paths: AppPaths) throws -> AppDatabase {
        for folder in [paths.dataFolder, paths.photosFolder, paths.stagingFolder, paths.tileCacheFolder] {
            do {
                // 0700, as the XDG spec asks for the folders an application creates.
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(error, folder: folder, databaseURL: nil)
            }
        }
        let database: AppDatabase
        do {
            let pool = try DatabasePool(path: paths.databaseURL.path, configuration: makeConfiguration())
            database = try AppDatabase(pool, dataFolder: paths.dataFolder)
        } catch {
            throw StoreError(error, folder: paths.dataFolder, databaseURL: paths.databaseURL)
        }
        return database
    }

    /// An empty in-memory database, for tests; photo files go to `dataFolder/photos`.
    public static func empty(dataFolder: URL) throws -> AppDatabase {
        let photosFolder = dataFolder.appendingPathComponent(photosFolderName, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: photosFolder, withIntermediateDirectories: true)
            let queue = try DatabaseQueue(configuration: makeConfiguration())
            return try AppDatabase(queue, dataFolder: dataFolder)
        } catch {
            throw StoreError(error, folder: dataFolder, databaseURL: nil)
        }
    }

    /// The configuration `init(_:dataFolder:)` expects.
    public static func makeConfiguration(_ base: Configuration = Configuration()) -> Configuration {
        var config = base
        config.label = "VirtualTourist"
        // Cascades from pin to photo rely on it; GRDB's default, stated because the schema depends on it.
        config.foreignKeysEnabled = true
        // A second copy of the app or an sqlite3 shell makes us wait a little instead of failing at once.
        config.busyMode = .timeout(5)
        return config
    }

    /// The folder holding downloaded photos.
    public var photosFolder: URL {
        dataFolder.appendingPathComponent(Self.photosFolderName, isDirectory: true)
    }

    /// Read-only access for observations and custom queries.
    public var reader: any DatabaseReader {
        dbWriter
    }
}

// MARK: - Viewport

extension AppDatabase {
    /// The saved viewport, or nil before the first save.
    public func viewport() throws -> Viewport? {
        try read { db in try Viewport.fetchOne(db) }
    }

    /// Saves the viewport, replacing the previous one.
    public func saveViewport(_ viewport: Viewport) throws {
        try write { db in try viewport.upsert(db) }
    }

    /// Queues the viewport save and returns at once; a later `saveViewport(_:)` from the same thread still wins,
    /// since GRDB runs both on one serial queue.
    /// - parameter completion: nil or a `StoreError`, on a private serial queue, in call order.
    public func saveViewportInBackground(_ viewport: Viewport, completion: (@Sendable (Error?) -> Void)? = nil) {
        dbWriter.asyncWriteWithoutTransaction { [self] db in
            let outcome: Error?
            do {
                try commitThenDeleteReleasedFiles(db) { db in try viewport.upsert(db) }
                outcome = nil
            } catch {
                outcome = StoreError(error, folder: dataFolder, databaseURL: databaseURL)
            }
            if let completion {
                completionQueue.async { completion(outcome) }
            }
        }
    }
}

// MARK: - Window state

extension AppDatabase {
    /// The saved window state, or nil before the first save.
    public func windowState() throws -> WindowState? {
        try read { db in try WindowState.fetchOne(db) }
    }

    /// Saves the window state, replacing the previous one.
    public func saveWindowState(_ state: WindowState) throws {
        try write { db in try state.upsert(db) }
    }
}

// MARK: - Pins

extension AppDatabase {
    /// Inserts a pin with an empty album.
    public func insertPin(latitude: Double, longitude: Double) throws -> Pin {
        try write { db in try Pin(latitude: latitude, longitude: longitude).inserted(db) }
    }

    /// Moves a pin; its photos stay.
    ///
    /// - throws: `StoreError.pinNotFound` if the pin was deleted.
    public func movePin(id: Int64, latitude: Double, longitude: Double) throws {
        try movePin(id: id, latitude: latitude, longitude: longitude, clearingAlbum: false)
    }

    /// Moves a pin and, when `clearingAlbum` and the move is meaningful (`AlbumPlace`), forgets its
    /// album (photos of the old place) in the same transaction, so nobody ever sees the pin at its
    /// new place with its old photos. A nudge keeps the album.
    ///
    /// - throws: `StoreError.pinNotFound` if the pin was deleted.
    public func movePin(id: Int64, latitude: Double, longitude: Double, clearingAlbum: Bool) throws {
        try write { db in
            guard let old = try Pin.fetchOne(db, id: id) else { throw StoreError.pinNotFound(id: id) }
            try Pin.filter(id: id).updateAll(
                db, Pin.Columns.latitude.set(to: latitude), Pin.Columns.longitude.set(to: longitude))
            guard !AlbumPlace.isSame((old.latitude, old.longitude), (latitude, longitude)) else { return }
            // Somewhere else now: the old name is wrong, and the namer names it again.
            try Pin.filter(id: id).updateAll(
                db, Pin.Columns.placeName.set(to: nil), Pin.Columns.placeNameSource.set(to: nil))
            if clearingAlbum { try Self.clearAlbum(ofPin: id, db) }
        }
    }

    /// Deletes a pin with its photos and their files; does nothing if the pin is already gone.
    public func deletePin(id: Int64) throws {
        try write { db in _ = try Pin.deleteOne(db, id: id) }
    }

    /// All pins, oldest first.
    public func pins() throws -> [Pin] {
        try read { db in try Pin.order(Pin.Columns.id).fetchAll(db) }
    }

    /// The pin, or nil if it does not exist.
    public func pin(id: Int64) throws -> Pin? {
        try read { db in try Pin.fetchOne(db, id: id) }
    }

    // MARK: Place names

    /// Names the pin if it is still where it was when the name was looked up (a move in between makes
    /// the name wrong), and never replaces an online name with an offline one. Returns whether it did.
    @discardableResult
    public func namePin(id: Int64, _ name: String, source: PlaceNameSource, at latitude: Double,
                        _ longitude: Double) throws -> Bool {
        try namePins([(id, name, latitude, longitude)], source: source) == 1
    }

    /// `namePin` for many pins in one transaction; returns how many were named.
    @discardableResult
    public func namePins(_ names: [(id: Int64, name: String, latitude: Double, longitude: Double)],
                         source: PlaceNameSource) throws -> Int {
        guard !names.isEmpty else { return 0 }
        return try write { db in
            var named = 0
            for entry in names {
                var request = Pin.filter(id: entry.id)
                    .filter(Pin.Columns.latitude == entry.latitude && Pin.Columns.longitude == entry.longitude)
                if source == .offline { request = request.filter(Pin.Columns.placeNameSource == nil) }
                // Geocoders' names come from outside too (OpenStreetMap's contributors, GeoNames).
                named += try request.updateAll(db, Pin.Columns.placeName.set(to: PlainText.nonEmptyName(entry.name)),
                                               Pin.Columns.placeNameSource.set(to: source.rawValue))
            }
            return named
        }
    }

    /// The id of the newest pin, nil with none.
    public func newestPinID() throws -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM pin") }
    }

    /// Up to `limit` pins still to name, newest first: with no name at all (`.offline`), or without an
    /// online name (`.online`) and not among `skipping`.
    public func pinsToName(_ wanted: PlaceNameSource, limit: Int, skipping: Set<Int64> = []) throws -> [Pin] {
        try read { db in
            var request = Pin.order(Pin.Columns.id.desc)
            switch wanted {
            case .offline: request = request.filter(Pin.Columns.placeNameSource == nil)
            case .online: request = request.filter(Pin.Columns.placeNameSource != PlaceNameSource.online.rawValue
                                                    || Pin.Columns.placeNameSource == nil)
            }
            if !skipping.isEmpty { request = request.filter(!skipping.contains(Pin.Columns.id)) }
            return try request.limit(limit).fetchAll(db)
        }
    }

    /// Notifies all pins, oldest first, on start and after each change.
    ///
    /// Start it in `reader`, e.g. `observePins().start(in: database.reader, scheduling: .mainActor, ...)`.
    public func observePins() -> ValueObservation<ValueReducers.RemoveDuplicates<ValueReducers.Fetch<[Pin]>>> {
        ValueObservation
            .tracking { db in try Pin.order(Pin.Columns.id).fetchAll(db) }
            .removeDuplicates()
    }
}

// MARK: - Photos

extension AppDatabase {
    /// Adds a photo to its pin's album.
    ///
    /// - throws: `StoreError.duplicatePhoto` if the album already has this Flickr photo,
    ///   `StoreError.pinNotFound` if the pin was deleted, `StoreError.invalidPhotoPath`
    ///   if `filePath` is not inside the photos folder.
    public func insertPhoto(_ photo: Photo) throws -> Photo {
        if let path = photo.filePath { try Self.validatePhotoPath(path) }
        return try write { db in
            do {
                return try photo.inserted(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw StoreError.duplicatePhoto(pinId: photo.pinId, flickrId: photo.flickrId)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.pinNotFound(id: photo.pinId)
            }
        }
    }

    /// The pin's photos, in album order.
    public func photos(ofPin pinId: Int64) throws -> [Photo] {
        try read { db in try Self.album(ofPin: pinId).fetchAll(db) }
    }

    /// Records where a photo's file is (relative to `dataFolder`), or nil to forget it;
    /// the file it named before is deleted.
    ///
    /// - throws: `StoreError.photoNotFound` if the photo was deleted (the caller should delete
    ///   the file it just wrote), `StoreError.invalidPhotoPath` if the path is outside the photos folder.
    public func setPhotoFile(id: Int64, relativePath: String?) throws {
        if let relativePath { try Self.validatePhotoPath(relativePath) }
        try write { db in
            let count = try Photo.filter(id: id).updateAll(db, Photo.Columns.filePath.set(to: relativePath))
            if count == 0 { throw StoreError.photoNotFound(id: id) }
        }
    }

    /// Deletes a photo and its file; does nothing if the photo is already gone.
    public func deletePhoto(id: Int64) throws {
        try write { db in _ = try Photo.deleteOne(db, id: id) }
    }

    /// Empties a pin's album (e.g. for a new collection) and deletes the files; returns how many photos went.
    @discardableResult
    public func deletePhotos(ofPin pinId: Int64) throws -> Int {
        try write { db in try Photo.filter(Photo.Columns.pinId == pinId).deleteAll(db) }
    }

    /// The absolute location of a `Photo.filePath`.
    public func photoFileURL(relativePath: String) -> URL {
        dataFolder.appendingPathComponent(relativePath, isDirectory: false)
    }

    /// Notifies the pin's photos, in album order, on start and after each change.
    ///
    /// Start it in `reader`, e.g. `observePhotos(ofPin: id).start(in: database.reader, scheduling: .mainActor, ...)`.
    public func observePhotos(
        ofPin pinId: Int64
    ) -> ValueObservation<ValueReducers.RemoveDuplicates<ValueReducers.Fetch<[Photo]>>> {
        ValueObservation
            .tracking { db in try Self.album(ofPin: pinId).fetchAll(db) }
            .removeDuplicates()
    }

    static func album(ofPin pinId: Int64) -> QueryInterfaceRequest<Photo> {
        Photo.filter(Photo.Columns.pinId == pinId).order(Photo.Columns.position, Photo.Columns.id)
    }
}

// MARK: - Transactions

extension AppDatabase {
    /// The one way the store writes: `updates` runs in a transaction, then the files it
    /// released are unlinked. Internal, not private, so tests can roll a transaction back.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try wrapErrors {
            try dbWriter.writeWithoutTransaction { db in
                try commitThenDeleteReleasedFiles(db, updates)
            }
        }
    }

    // Runs on the writer queue, so no other write can name a file between commit and unlink.
    private func commitThenDeleteReleasedFiles<T>(_ db: Database, _ updates: (Database) throws -> T) throws -> T {
        var result: T?
        try db.inTransaction {
            result = try updates(db)
            return .commit
        }
        deleteReleasedFiles(db)
        // inTransaction returns nothing; result was set before the commit.
        return result!
    }

    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try wrapErrors { try dbWriter.read(value) }
    }

    func wrapErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreError(error, folder: dataFolder, databaseURL: databaseURL)
        }
    }
}

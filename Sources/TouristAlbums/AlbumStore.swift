import Foundation
import TouristStore

/// What albums need from the store.
public protocol AlbumStore: Sendable {
    func pin(id: Int64) throws -> Pin?
    func album(ofPin pinId: Int64) throws -> Album?
    func albumContents(ofPin pinId: Int64) throws -> AlbumContents
    func replaceAlbum(_ album: Album, photos: [Photo], searchedAt: (latitude: Double, longitude: Double)?) throws -> [Photo]
    func seenFlickrIds(ofPin pinId: Int64) throws -> Set<String>
    func setPhotoFile(id: Int64, relativePath: String?) throws
    func adoptPhotoFiles(_ files: [StagedPhotoFile]) throws -> [Result<String, StoreError>]
    @MainActor
    func observePin(id: Int64, onError: @escaping @MainActor (Error) -> Void,
                    onChange: @escaping @MainActor (Pin?) -> Void) -> StoreObservation
    func photoFileURL(relativePath: String) -> URL
}

extension AppDatabase: AlbumStore {}

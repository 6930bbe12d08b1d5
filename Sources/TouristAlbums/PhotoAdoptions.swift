import Foundation
import TouristStore

/// Downloaded photos taken into the store with group commit (photos arriving during a write go in the next
/// one), because HTTP/2 lands a whole album at once and one write apiece queued them behind each other.
@MainActor
final class PhotoAdoptions {
    private let store: any AlbumStore
    private var waiting: [(file: StagedPhotoFile, keep: (@Sendable (String) -> Void)?,
                           continuation: CheckedContinuation<String, any Error>)] = []
    private var writing = false

    init(store: any AlbumStore) {
        self.store = store
    }

    /// Returns once the photo's file is in the photos folder and its row names it, with its path there (relative to
    /// the data folder, as the row has it); throws the store's error for this photo (`photoNotFound` if it left the
    /// album meanwhile). The staged file is the caller's until then.
    /// - parameter keep: given the path as soon as the row names it, before anyone watching the album can ask for the
    ///   photo's picture (its download's decode is kept under that path).
    func adopt(_ file: StagedPhotoFile, keep: (@Sendable (String) -> Void)? = nil) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append((file, keep, continuation))
            if !writing {
                writing = true
                Task { await writeWhileWaiting() }
            }
        }
    }

    private func writeWhileWaiting() async {
        while !waiting.isEmpty {
            let batch = waiting
            waiting = []
            let store = self.store
            let files = batch.map(\.file)
            let keeps = batch.map(\.keep)
            do {
                let outcomes = try await AlbumService.background {
                    let outcomes = try store.adoptPhotoFiles(files)
                    for (keep, outcome) in zip(keeps, outcomes) {
                        if let keep, case .success(let path) = outcome { keep(path) }
                    }
                    return outcomes
                }
                for (entry, outcome) in zip(batch, outcomes) {
                    entry.continuation.resume(with: outcome.mapError { $0 as any Error })
                }
            } catch {
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
        writing = false
    }
}

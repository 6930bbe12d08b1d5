import Foundation
import TouristStore

/// Downloaded photos taken into the store with group commit (photos arriving during a write go in the next
/// one), because HTTP/2 lands a whole album at once and one write apiece queued them behind each other.
@MainActor
final class PhotoAdoptions {
    private let store: any AlbumStore
    private var waiting: [(file: StagedPhotoFile, continuation: CheckedContinuation<String, any Error>)] = []
    private var writing = false

    init(store: any AlbumStore) {
        self.store = store
    }

    /// Returns once the photo's file is in the photos folder and its row names it, with its path there (relative to
    /// the data folder, as the row has it); throws the store's error for this photo (`photoNotFound` if it left the
    /// album meanwhile). The staged file is the caller's until then.
    func adopt(_ file: StagedPhotoFile) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append((file, continuation))
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
            do {
                let outcomes = try await AlbumService.background { try store.adoptPhotoFiles(files) }
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

import Foundation
import ReelStorage
import ReelStore

/// Deletes a post for good: its row first (with its search entry, tags, everyone's state of it,
/// its jobs and its story filing, in one transaction, so nothing serves it while its files go),
/// then its published media, then each source file no other post uses. The owner's delete
/// route and the stories' expiry sweep both go through here.
public struct PostRemoval: Sendable {
    let library: any LibraryStore
    let storage: any MediaStorage
    /// Nil leaves source files on disk.
    let sources: (any SourceStorage)?

    public init(library: any LibraryStore, storage: any MediaStorage, sources: (any SourceStorage)?) {
        self.library = library
        self.storage = storage
        self.sources = sources
    }

    /// False when there was no such post. A transcode still running loses its job, and one
    /// that publishes after this removes what it published.
    @discardableResult
    public func remove(postID: Int64) async throws -> Bool {
        guard let unsharedSources = try await library.removePost(id: postID) else { return false }
        try await storage.remove(postKey: String(postID))
        for path in unsharedSources { await sources?.removeSource(path) }
        return true
    }
}

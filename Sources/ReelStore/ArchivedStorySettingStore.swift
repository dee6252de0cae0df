/// The one library setting import needs to file archived stories, apart so the importer
/// depends on this read and not on all of `LibraryGrantStore` (which refines it).
public protocol ArchivedStorySettingStore: Sendable {
    /// Whether archived (instaloader) stories filed into the library stay in the tray for good
    /// (`libraries.keep_archived_stories`, on unless turned off) rather than for the story
    /// lifetime after their original time. An unknown library is `StoreError.notFound`.
    func keepsArchivedStories(libraryID: Int64) async throws -> Bool
}

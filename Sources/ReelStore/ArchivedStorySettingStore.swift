/// The one library setting import needs to file archived stories. (The `storyserver` work adds
/// the setting to the library listing and its API; this read stays separate so import does not
/// wait for that.)
public protocol ArchivedStorySettingStore: Sendable {
    /// Whether archived (instaloader) stories imported into the library stay in the tray for
    /// good (`libraries.keep_archived_stories`, default true) rather than for the story
    /// lifetime after their original time. `StoreError.notFound` for an unknown library.
    func keepsArchivedStories(libraryID: Int64) async throws -> Bool
}

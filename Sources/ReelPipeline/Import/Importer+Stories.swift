import Foundation
import ReelImport
import ReelModels
import ReelStore

extension Importer {
    /// How a candidate's items are filed: as the import's own stories (`--story --as`, an
    /// upload posted as a story), as the archived story its instaloader sidecar describes, or
    /// not at all (posts). The second value is a report warning, if any.
    func storyFiling(sidecarStory: StorySidecar?, options: ImportOptions) async throws -> (StoryFiling?, String?) {
        if let story = options.story { return (story.filing(postedAt: now()), nil) }
        guard let sidecarStory else { return (nil, nil) }
        let keep = try await store.keepsArchivedStories(libraryID: options.libraryID)
        guard let filing = ArchivedStoryFiling.filing(
            sidecarStory, keepArchivedStories: keep, lifetime: options.storyLifetime, importedAt: now()
        ) else {
            return (nil, "an instaloader story whose sidecar names no account (and whose folder is not named after one); imported as a post")
        }
        let warning = sidecarStory.postedAt == nil ? "an instaloader story without its time; filed as posted now" : nil
        return (filing, warning)
    }
}

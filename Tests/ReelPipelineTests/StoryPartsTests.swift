import Foundation
import ReelImport
import ReelModels
import ReelStore
import Testing
@testable import ReelPipeline

@Suite("Story items of one imported file")
struct StoryPartsTests {
    let posted = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aLongVideoBecomesConsecutiveParts() {
        let filing = StoryFiling(author: "ana", userID: 7, postedAt: posted, expiresAt: posted.addingTimeInterval(86_400))
        let parts = StoryPart.split(filing, contentHash: "abc", kind: .video, duration: 130)
        #expect(parts.map(\.trim) == [
            SourceTrim(start: 0, duration: 60), SourceTrim(start: 60, duration: 60), SourceTrim(start: 120, duration: 10),
        ])
        #expect(parts.map(\.filing.part) == [0, 1, 2])
        #expect(parts.allSatisfy { $0.filing.parts == 3 && $0.filing.author == "ana" && $0.filing.userID == 7 })
        #expect(parts.map(\.filing.postedAt) == [posted, posted.addingTimeInterval(0.001), posted.addingTimeInterval(0.002)])
        #expect(parts.map(\.filing.expiresAt) == parts.map { $0.filing.postedAt.addingTimeInterval(86_400) })
        #expect(Set(parts.map(\.contentHash)).count == 3 && !parts.map(\.contentHash).contains("abc"))
        // The same file split again names the same parts: a re-import finds them.
        #expect(StoryPart.split(filing, contentHash: "abc", kind: .video, duration: 130).map(\.contentHash) == parts.map(\.contentHash))
    }

    @Test func shortVideosAndPhotosStayWhole() {
        let filing = StoryFiling(author: "ana", postedAt: posted, expiresAt: nil, archived: true)
        #expect(StoryPart.split(filing, contentHash: "abc", kind: .video, duration: 59.9)
            == [StoryPart(trim: nil, filing: filing, contentHash: "abc")])
        #expect(StoryPart.split(filing, contentHash: "abc", kind: .image, duration: 600).count == 1)
        #expect(StoryPart.split(filing, contentHash: "abc", kind: .video, duration: nil).count == 1)
        #expect(StoryPart.split(filing, contentHash: "abc", kind: .video, duration: 25, partLength: 10).count == 3)
    }

    @Test func archivedStoriesKeepTheirTimeAndExpireByTheLibrarysSetting() {
        let story = StorySidecar(author: "harbour.swimmer", postedAt: posted, expiringAt: posted.addingTimeInterval(86_400))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let kept = ArchivedStoryFiling.filing(story, keepArchivedStories: true, lifetime: 3600, importedAt: now)
        #expect(kept == StoryFiling(author: "harbour.swimmer", userID: nil, postedAt: posted, expiresAt: nil, archived: true))
        let expiring = ArchivedStoryFiling.filing(story, keepArchivedStories: false, lifetime: 3600, importedAt: now)
        #expect(expiring?.expiresAt == posted.addingTimeInterval(3600), "the lifetime counts from the original time")
        #expect(ArchivedStoryFiling.filing(StorySidecar(author: "x"), keepArchivedStories: true, lifetime: 3600, importedAt: now)?.postedAt == now)
        #expect(ArchivedStoryFiling.filing(StorySidecar(author: nil, postedAt: posted), keepArchivedStories: true, lifetime: 3600, importedAt: now) == nil)
    }
}

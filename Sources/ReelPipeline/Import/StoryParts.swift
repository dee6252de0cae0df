import Foundation
import ReelImport
import ReelModels
import ReelStore

/// Which story items one imported file becomes: one, or — a video longer than a story item
/// may be — one per 60 s part of it, each its own post of the same kept source.
struct StoryPart: Sendable, Equatable {
    /// The part of the source the post shows; nil for all of it.
    var trim: SourceTrim?
    var filing: StoryFiling
    /// The post's identity: the source's hash for a whole file, a hash naming the part
    /// otherwise, so importing the same file again finds every part it made.
    var contentHash: String

    /// `filing` (part 0 of 1) cut into parts of `partLength` seconds when a video of
    /// `duration` is longer. Parts are posted 1 ms apart, in order, so the tray plays them
    /// one after the other; each expires its lifetime after its own posting.
    static func split(
        _ filing: StoryFiling, contentHash: String, kind: PostKind, duration: Double?,
        partLength: Double = SourceTrim.storyPartLength
    ) -> [StoryPart] {
        guard kind == .video, let duration, let trims = SourceTrim.parts(ofDuration: duration, length: partLength) else {
            return [StoryPart(trim: nil, filing: filing, contentHash: contentHash)]
        }
        return trims.enumerated().map { index, trim in
            var part = filing
            let offset = Double(index) / 1000
            part.postedAt = filing.postedAt.addingTimeInterval(offset)
            part.expiresAt = filing.expiresAt?.addingTimeInterval(offset)
            part.part = index
            part.parts = trims.count
            return StoryPart(trim: trim, filing: part, contentHash: partHash(contentHash, index: index))
        }
    }

    /// `<source hash>` + which part, hashed: stable across imports of the same file (whose
    /// duration, and so its number of parts, is the same each time), and computable without
    /// probing it, so an upload's retried import finds its first part.
    static func partHash(_ contentHash: String, index: Int) -> String {
        ContentHasher.scoped(contentHash, by: "story part \(index + 1)")
    }
}

/// The story an instaloader sidecar describes, filed as the spec has it: archived, under the
/// account's name, at its original time, kept in the tray for good when the library keeps
/// archived stories, else for the story lifetime after it was posted (an old archive then goes
/// straight to the archive, never through the tray).
enum ArchivedStoryFiling {
    static func filing(
        _ story: StorySidecar, keepArchivedStories: Bool, lifetime: TimeInterval, importedAt: Date
    ) -> StoryFiling? {
        guard let author = story.author else { return nil }
        let postedAt = story.postedAt ?? importedAt
        return StoryFiling(
            author: author, userID: nil, postedAt: postedAt,
            expiresAt: keepArchivedStories ? nil : postedAt.addingTimeInterval(lifetime), archived: true
        )
    }
}

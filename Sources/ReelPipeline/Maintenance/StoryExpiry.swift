import Foundation
import Logging
import ReelJobs
import ReelLibrary
import ReelModels
import ReelStorage
import ReelStore

/// The stories' expiry sweep, as the recurring `stories.expire` job: items past their
/// `expires_at` leave the tray, and those nothing keeps (not kept as a post, not archived, not
/// in an owner's archive) are deleted with their post and media, through the same removal as
/// the owner's delete.
public struct StoryExpiry: Sendable {
    let stories: any StoryStore
    let removal: PostRemoval
    /// `storyArchive`: a server user's expired stories stay for their archive.
    let keepOwnerArchive: Bool
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        stories: any StoryStore, removal: PostRemoval, keepOwnerArchive: Bool, logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.stories = stories
        self.removal = removal
        self.keepOwnerArchive = keepOwnerArchive
        self.logger = logger
        self.now = now
    }

    /// The `stories.expire` job: a sweep every `interval` (a minute: a story's ring should go
    /// out close to its time), for the light worker to run.
    public func recurringJob(every interval: TimeInterval = 60) -> RecurringJob {
        RecurringJob(kind: .storiesExpire, every: interval) { try await sweep() }
    }

    /// Marks what has expired and deletes what must go; answers how many posts were deleted.
    /// A deletion that fails throws, so the job retries; the store answers the same items
    /// again until they are gone.
    @discardableResult
    public func sweep() async throws -> Int {
        var removed = 0
        for postID in try await stories.expireStories(now: now(), keepOwnerArchive: keepOwnerArchive) {
            if try await removal.remove(postID: postID) { removed += 1 }
        }
        if removed > 0 { logger.info("deleted expired stories", metadata: ["count": "\(removed)"]) }
        return removed
    }
}

import Foundation
import ReelCache
import ReelModels

/// A small, bounded, short-lived memory of `ready` posts, so a player fetching a segment every
/// two seconds does not cost a database read (and a JSON decode of the media row) per segment.
///
/// A ready post's media never changes, but a post can be deleted: entries live `ttl` seconds
/// (3 s by default), so a deleted post stops being served within that time on every node,
/// without any invalidation message. Only ready posts are remembered; a miss (unknown, not yet
/// ready) always asks the store again, so a post becoming ready is served at once. Clock-driven
/// by the controller's `now`, so tests can move time.
///
/// "Ready" is whatever statuses the owner serves: signed media (`MediaController`) serves
/// stories too, whose tokens only the stories routes issue, and only within the viewer's
/// libraries; seed 000's credential-less routes serve `ready` posts alone.
final class ReadyPostCache<Key: Hashable & Sendable>: Sendable {
    /// What the media routes need of a post, precomputed once per load.
    struct Entry: Sendable {
        let post: Post
        let media: PublishedMedia
        /// `media.allFiles`, the only names ever mapped to files.
        let files: Set<String>
    }

    /// The statuses served (`ready`, and `story` for signed media).
    let statuses: Set<PostStatus>
    private let entries: BoundedCache<Key, Entry, NoRevision>

    init(capacity: Int = 512, ttl: TimeInterval = 3, statuses: Set<PostStatus> = [.ready]) {
        self.statuses = statuses
        entries = BoundedCache(capacity: capacity, lifetime: ttl)
    }

    /// The ready post for `key`, from memory if loaded less than `ttl` ago, else from `load`.
    func entry(for key: Key, now: Date, load: () async throws -> Post?) async throws -> Entry? {
        if let hit = entries.value(for: key, now: now) { return hit }
        guard let post = try await load(), statuses.contains(post.status), let media = post.media else {
            entries.remove(key)
            return nil
        }
        let entry = Entry(post: post, media: media, files: Set(media.allFiles))
        entries.insert(entry, for: key, now: now)
        return entry
    }

    func invalidate(_ key: Key) {
        entries.remove(key)
    }

    var count: Int { entries.count }
}

import Foundation
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
final class ReadyPostCache<Key: Hashable & Sendable>: @unchecked Sendable {
    /// What the media routes need of a post, precomputed once per load.
    struct Entry: Sendable {
        let post: Post
        let media: PublishedMedia
        /// `media.allFiles`, the only names ever mapped to files.
        let files: Set<String>
    }

    private struct Slot {
        let entry: Entry
        let loadedAt: Date
    }

    let capacity: Int
    let ttl: TimeInterval
    /// The statuses served (`ready`, and `story` for signed media).
    let statuses: Set<PostStatus>
    private let lock = NSLock()
    private var slots: [Key: Slot] = [:]

    init(capacity: Int = 512, ttl: TimeInterval = 3, statuses: Set<PostStatus> = [.ready]) {
        self.capacity = max(1, capacity)
        self.ttl = ttl
        self.statuses = statuses
    }

    /// The ready post for `key`, from memory if loaded less than `ttl` ago, else from `load`.
    func entry(for key: Key, now: Date, load: () async throws -> Post?) async throws -> Entry? {
        if let hit = lookup(key, now: now) { return hit }
        guard let post = try await load(), statuses.contains(post.status), let media = post.media else {
            lock.withLock { slots[key] = nil }
            return nil
        }
        let entry = Entry(post: post, media: media, files: Set(media.allFiles))
        store(entry, for: key, now: now)
        return entry
    }

    func invalidate(_ key: Key) {
        lock.withLock { slots[key] = nil }
    }

    var count: Int { lock.withLock { slots.count } }

    private func lookup(_ key: Key, now: Date) -> Entry? {
        lock.withLock {
            guard let slot = slots[key] else { return nil }
            let age = now.timeIntervalSince(slot.loadedAt)
            guard age >= 0, age < ttl else {
                slots[key] = nil
                return nil
            }
            return slot.entry
        }
    }

    private func store(_ entry: Entry, for key: Key, now: Date) {
        guard ttl > 0 else { return }
        lock.withLock {
            if slots[key] == nil, slots.count >= capacity {
                // Drop what has expired; if everything is fresh, drop the oldest.
                slots = slots.filter { now.timeIntervalSince($0.value.loadedAt) < ttl }
                if slots.count >= capacity, let oldest = slots.min(by: { $0.value.loadedAt < $1.value.loadedAt })?.key {
                    slots[oldest] = nil
                }
            }
            slots[key] = Slot(entry: entry, loadedAt: now)
        }
    }
}

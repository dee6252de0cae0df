import Foundation
import ReelModels
import ReelStore

/// Each post's encoded `APIVideo.SharedPart` (everything but the viewer's fields), reused while
/// the post and its token window stay the same.
///
/// Profiling the feed showed encoding a page as its largest cost, and all of it but three fields
/// per item is the same for every viewer during a token window. An entry remembers exactly what
/// it was made from (the store's revision of the post, or the post and its tag and flag refs
/// themselves; the URLs' expiry) and is used only when the item now being served matches, so
/// an edited, re-published or re-tagged post, or a new token window, simply misses: nothing
/// ever needs invalidating. Bounded; when
/// full it starts over, which keeps the hot set (the posts being paged right now) without any
/// bookkeeping per hit.
final class EncodedItemCache: @unchecked Sendable {
    /// What an entry was made from: the store's revision of the item when it has one (one
    /// comparison), else the item's values themselves; and the URLs' expiry.
    private struct Source: Equatable {
        enum Version: Equatable {
            case revision(Int64)
            case values(Post, tags: [TagCount]?, flags: [TagCount]?)
        }

        let version: Version
        let expiry: Int64

        init(_ item: FeedItem, expiry: Int64) {
            version = item.revision.map(Version.revision) ?? .values(item.post, tags: item.tagRefs, flags: item.flagRefs)
            self.expiry = expiry
        }
    }

    /// A class, so a lookup under the lock copies a reference.
    private final class Entry {
        let source: Source
        /// The encoded shared part without its closing brace.
        let open: [UInt8]

        init(source: Source, open: [UInt8]) {
            self.source = source
            self.open = open
        }
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Int64: Entry] = [:]

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// The item's shared part, encoded and without its closing `}`, from memory when it was
    /// made from an equal item in the same token window, else from `encode`.
    func openObject(for item: FeedItem, expiry: Int64, encode: () throws -> [UInt8]) rethrows -> [UInt8] {
        let source = Source(item, expiry: expiry)
        if let hit = lock.withLock({ entries[item.post.id] }), hit.source == source { return hit.open }
        var bytes = try encode()
        if bytes.last == UInt8(ascii: "}") { bytes.removeLast() }
        let entry = Entry(source: source, open: bytes)
        lock.withLock {
            if entries.count >= capacity, entries[item.post.id] == nil { entries.removeAll(keepingCapacity: true) }
            entries[item.post.id] = entry
        }
        return bytes
    }

    var count: Int { lock.withLock { entries.count } }
}

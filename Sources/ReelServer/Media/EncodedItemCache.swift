import Foundation
import ReelCache
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
/// ever needs invalidating. Bounded (`BoundedCache`: when full it starts over).
final class EncodedItemCache: Sendable {
    /// What an entry was made from: the store's revision of the item when it has one (one
    /// comparison), else the item's values themselves; and the URLs' expiry.
    private struct Source: Equatable, Sendable {
        enum Version: Equatable, Sendable {
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

    /// The encoded shared parts (without their closing brace) by post id, each checked against
    /// what it was made from.
    private let entries: BoundedCache<Int64, [UInt8], Source>

    init(capacity: Int = 4096) {
        entries = BoundedCache(capacity: capacity)
    }

    /// The item's shared part, encoded and without its closing `}`, from memory when it was
    /// made from an equal item in the same token window, else from `encode`.
    func openObject(for item: FeedItem, expiry: Int64, encode: () throws -> [UInt8]) rethrows -> [UInt8] {
        try entries.value(for: item.post.id, revision: Source(item, expiry: expiry)) {
            var bytes = try encode()
            if bytes.last == UInt8(ascii: "}") { bytes.removeLast() }
            return bytes
        }
    }

    var count: Int { entries.count }
}

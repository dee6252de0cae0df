import Foundation
import ReelModels

/// Remembers each post's decoded `media_json` together with the exact text it came from.
///
/// Every feed page, favorites page and post lookup decodes each post's media JSON (renditions,
/// segment lists, images), and profiling the feed showed that decode as the largest single cost
/// of a page. An entry is used only when the row's text is identical to the text it was
/// decoded from, so it can never be stale: a re-published post has different text and simply
/// misses. Keyed by post id rather than by the text, so a hit costs one comparison of the text
/// (a memcmp) instead of hashing kilobytes of JSON per row. Bounded; when full it starts over,
/// which keeps the hot set (the posts being paged right now) without any bookkeeping per hit.
final class MediaDecodeCache: @unchecked Sendable {
    static let shared = MediaDecodeCache(capacity: 4096)

    private struct Entry {
        let json: String
        let media: PublishedMedia
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Int64: Entry] = [:]

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func media(for json: String, postID: Int64) throws -> PublishedMedia {
        if let hit = lock.withLock({ entries[postID] }), hit.json == json { return hit.media }
        let media = try JSONDecoder().decode(PublishedMedia.self, from: Data(json.utf8))
        lock.withLock {
            if entries.count >= capacity, entries[postID] == nil { entries.removeAll(keepingCapacity: true) }
            entries[postID] = Entry(json: json, media: media)
        }
        return media
    }

    var count: Int { lock.withLock { entries.count } }
}

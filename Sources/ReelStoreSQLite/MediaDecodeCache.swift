import Foundation
import ReelModels

/// Remembers decoded `media_json` values by their exact text.
///
/// Every feed page, favorites page and post lookup decodes each post's media JSON (renditions,
/// segment lists, images), and profiling the feed showed that decode as the largest single cost
/// of a page. The key is the JSON text itself, so an entry can never be stale: a re-published
/// post has different text and simply misses. Bounded; when full it starts over, which keeps
/// the hot set (the posts being paged right now) without any bookkeeping per hit.
final class MediaDecodeCache: @unchecked Sendable {
    static let shared = MediaDecodeCache(capacity: 4096)

    let capacity: Int
    private let lock = NSLock()
    private var entries: [String: PublishedMedia] = [:]

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func media(for json: String) throws -> PublishedMedia {
        if let hit = lock.withLock({ entries[json] }) { return hit }
        let media = try JSONDecoder().decode(PublishedMedia.self, from: Data(json.utf8))
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[json] = media
        }
        return media
    }

    var count: Int { lock.withLock { entries.count } }
}

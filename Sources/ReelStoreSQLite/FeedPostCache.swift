import Foundation
import GRDB
import ReelModels
import ReelStore

/// Posts the feed has decoded, each with the `revision` it was read at (see
/// `Schema.addPostRevisions`), so a page reads only ids, revisions and the viewer's state and
/// decodes just the posts it has not seen at that revision.
///
/// An entry is used only for the exact (id, revision) it was made from, and ids are never
/// reused, so it can never be stale: an edited, re-tagged or re-published post has a new
/// revision and simply misses. Per store, because revisions are per database. Bounded; when full
/// it starts over, which keeps the hot set without any bookkeeping per hit.
final class FeedPostCache: @unchecked Sendable {
    private struct Entry {
        let revision: Int64
        /// The post with its tag and flag refs; the viewer's state is the page's own.
        let item: FeedItem
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Int64: Entry] = [:]

    init(capacity: Int = 8192) {
        self.capacity = max(1, capacity)
    }

    /// Items for rows of the narrow feed select (`FeedQuery.Column`), in the rows' order: from
    /// memory at the row's revision, the others read with one query in the same transaction
    /// (so at the same revisions) and remembered.
    func items(_ db: Database, rows: [Row]) throws -> [FeedItem] {
        let wanted = rows.map { (id: $0[FeedQuery.Column.id] as Int64, revision: $0[FeedQuery.Column.revision] as Int64) }
        var items: [FeedItem?] = lock.withLock {
            wanted.map { key in entries[key.id].flatMap { $0.revision == key.revision ? $0.item : nil } }
        }
        let missing = zip(wanted, items).compactMap { key, item in item == nil ? key.id : nil }
        if !missing.isEmpty {
            let fresh = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM posts WHERE id IN (\(SQLiteStore.placeholders(missing.count)))"),
                arguments: StatementArguments(missing)
            )
            var decoded: [Int64: FeedItem] = [:]
            for (item, row) in zip(try SQLiteStore.decodeItems(db, rows: fresh), fresh) {
                var item = item
                item.revision = row["revision"]
                decoded[item.post.id] = item
            }
            lock.withLock {
                if entries.count + decoded.count > capacity { entries.removeAll(keepingCapacity: true) }
                for (id, item) in decoded { entries[id] = Entry(revision: item.revision ?? -1, item: item) }
            }
            for index in items.indices where items[index] == nil { items[index] = decoded[wanted[index].id] }
        }
        return try zip(wanted, rows).enumerated().map { index, pair in
            guard var item = items[index] else { throw StoreError.corrupt("feed post \(pair.0.id) vanished inside its read") }
            item.viewer = RowDecoding.viewerState(pair.1, columns: FeedQuery.Column.viewer)
            return item
        }
    }

    var count: Int { lock.withLock { entries.count } }
}

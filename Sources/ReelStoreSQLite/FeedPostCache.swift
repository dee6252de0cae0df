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
    /// A class, so a lookup under the lock copies a reference, not a post's worth of fields.
    private final class Entry {
        let revision: Int64
        /// The post with its tag and flag refs; the viewer's state is the page's own.
        let item: FeedItem

        init(revision: Int64, item: FeedItem) {
            self.revision = revision
            self.item = item
        }
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Int64: Entry] = [:]

    init(capacity: Int = 8192) {
        self.capacity = max(1, capacity)
    }

    /// Items for rows of the narrow feed select, in the rows' order: from
    /// memory at the row's revision, the others read with one query in the same transaction
    /// (so at the same revisions) and remembered.
    func items(_ db: Database, rows: [FeedRow]) throws -> [FeedItem] {
        let cached: [Entry?] = lock.withLock {
            rows.map { row in entries[row.id].flatMap { $0.revision == row.revision ? $0 : nil } }
        }
        var items = cached.map { $0?.item }
        let missing = zip(rows, items).compactMap { row, item in item == nil ? row.id : nil }
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
            for (index, row) in rows.enumerated() where items[index] == nil { items[index] = decoded[row.id] }
        }
        return try zip(rows, items).map { row, item in
            guard var item else { throw StoreError.corrupt("feed post \(row.id) vanished inside its read") }
            item.viewer = row.viewer
            return item
        }
    }

    var count: Int { lock.withLock { entries.count } }
}

/// One row of the narrow feed select (`FeedQuery.select`), read where the statement holds it.
struct FeedRow {
    let id: Int64
    let revision: Int64
    let feedKey: Int64
    let viewer: ViewerState

    init(_ row: Row) {
        id = row[FeedQuery.Column.id]
        revision = row[FeedQuery.Column.revision]
        feedKey = row[FeedQuery.Column.feedKey]
        viewer = RowDecoding.viewerState(row, columns: FeedQuery.Column.viewer)
    }
}

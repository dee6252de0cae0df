import Foundation
import ReelCache
import ReelModels
import ReelStore

/// Posts a store has read for listings, each with its tag and flag refs, kept by the `revision`
/// it was read at, so a page reads only ids, revisions and the viewer's state and loads just the
/// posts it has not seen at that revision. One per store: revisions are per database.
///
/// An entry is used only for the exact (id, revision) it was made from, and ids are never
/// reused, so it can never be stale: an edited, re-tagged or re-published post has a new
/// revision and simply misses.
public final class PostCache: Sendable {
    private let entries: BoundedCache<Int64, FeedItem, Int64>

    public init(capacity: Int = 8192) {
        entries = BoundedCache(capacity: capacity)
    }

    /// Items for `rows`, in their order, each with its row's viewer state: the post a row
    /// brought along (a backend may load the ones `misses(in:)` names in the same read), else
    /// from memory at the row's revision, else from `load` (posts by id with refs and revision;
    /// its viewer state is ignored); whatever was read is remembered. A post `load` no longer
    /// finds (deleted since its row was read) is left out; one re-read at a newer revision is
    /// served as read.
    public func items(for rows: [FeedRow], load: ([Int64]) async throws -> [FeedItem]) async throws -> [FeedItem] {
        var items = try rows.map { row -> FeedItem? in
            guard let post = row.post else { return entries.value(for: row.id, revision: row.revision) }
            try remember(post)
            return post
        }
        let missing = zip(rows, items).compactMap { row, item in item == nil ? row.id : nil }
        if !missing.isEmpty {
            var loaded: [Int64: FeedItem] = [:]
            for item in try await load(missing) {
                try remember(item)
                loaded[item.post.id] = item
            }
            for (index, row) in rows.enumerated() where items[index] == nil { items[index] = loaded[row.id] }
        }
        return zip(rows, items).compactMap { row, item in
            guard var item else { return nil }
            item.viewer = row.viewer
            return item
        }
    }

    /// The ids of `rows` not held at their revision: what a backend reading the rows may load
    /// in the same read (`FeedRow.post`).
    public func misses(in rows: [FeedRow]) -> [Int64] {
        rows.compactMap { entries.value(for: $0.id, revision: $0.revision) == nil ? $0.id : nil }
    }

    private func remember(_ item: FeedItem) throws {
        guard let revision = item.revision else { throw StoreError.corrupt("post \(item.post.id) was read without its revision") }
        entries.insert(item, for: item.post.id, revision: revision)
    }

    public var count: Int { entries.count }
}

/// One row of a listing's narrow select: the post's id and revision, its key in the listing's
/// order (the shuffle key; unused elsewhere) and the viewer's state. The rest of each post comes
/// from the `PostCache`.
public struct FeedRow: Sendable, Equatable {
    public var id: Int64
    public var revision: Int64
    public var key: Int64
    public var viewer: ViewerState
    /// The post itself with its refs and revision, when the backend read it with the row
    /// (because the cache missed it); nil: from the cache.
    public var post: FeedItem?

    public init(id: Int64, revision: Int64, key: Int64 = 0, viewer: ViewerState, post: FeedItem? = nil) {
        self.id = id
        self.revision = revision
        self.key = key
        self.viewer = viewer
        self.post = post
    }
}

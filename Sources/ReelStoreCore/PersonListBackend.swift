import Foundation
import ReelModels
import ReelStore

/// What a database answers for a person's own lists (history, "not interested"): their rows in
/// SQL, newest first from a keyset cursor. The pages, the cursors and which posts may still be
/// shown with an entry are the store core's.
public protocol PersonListBackend: EventStore, FeedBackend {
    /// Watched posts (any event but an impression), newest `watchedAt` first after `after`, at
    /// most `limit`, without their items.
    func historyRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HistoryEntry]

    /// "Not interested" posts, newest first after `after`, at most `limit`, without their items.
    func notInterestedRows(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> [HiddenPostEntry]

    /// The rows of the posts among `ids` the person may see in a listing: ready, in a library
    /// granted to them.
    func visibleRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow]
}

extension PersonListBackend {
    public func history(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HistoryEntry], next: RecentPostCursor?) {
        try Self.checkListLimit(limit)
        let rows = try await historyRows(userID: userID, after: after, limit: limit + 1)
        var page = Array(rows.prefix(limit))
        let items = try await visibleItems(userID: userID, ids: page.map(\.postID))
        for index in page.indices { page[index].item = items[page[index].postID] }
        let next = rows.count > limit ? page.last.map { RecentPostCursor(at: $0.watchedAt.timeIntervalSince1970, postID: $0.postID) } : nil
        return (page, next)
    }

    public func notInterested(userID: Int64, after: RecentPostCursor?, limit: Int) async throws -> (entries: [HiddenPostEntry], next: RecentPostCursor?) {
        try Self.checkListLimit(limit)
        let rows = try await notInterestedRows(userID: userID, after: after, limit: limit + 1)
        var page = Array(rows.prefix(limit))
        let items = try await visibleItems(userID: userID, ids: page.map(\.postID))
        for index in page.indices { page[index].item = items[page[index].postID] }
        let next = rows.count > limit ? page.last.map { RecentPostCursor(at: $0.at.timeIntervalSince1970, postID: $0.postID) } : nil
        return (page, next)
    }

    /// The posts among `ids` the person may see in a listing, with their refs and the person's
    /// state, by id.
    public func visibleItems(userID: Int64, ids: [Int64]) async throws -> [Int64: FeedItem] {
        guard !ids.isEmpty else { return [:] }
        let items = try await items(try await visibleRows(userID: userID, ids: ids))
        return Dictionary(items.map { ($0.post.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func checkListLimit(_ limit: Int) throws {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one entry, not \(limit)") }
    }
}

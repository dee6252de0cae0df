import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    /// The largest page served, so one request cannot ask for the whole library.
    public static let maxFeedPage = 500

    /// One page of the shuffled feed (see `FeedStore` and `FeedShuffle` for the contract).
    ///
    /// Reads up to `limit + 1` posts from the rest of the epoch (phase 0, then phase 1): the
    /// extra one tells whether the epoch goes on. When it does not, the page is what is left and
    /// `next` is the start of the next epoch, so a page never mixes two epochs and can never hold
    /// one post twice. A position with nothing left (its posts were deleted) moves on to the next
    /// epoch at once, so a page is empty only when nothing at all matches.
    public func feedPage(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> (items: [FeedItem], next: FeedPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        guard (0...1).contains(position.phase), (position.lastKey == nil) == (position.lastID == nil) else {
            throw StoreError.invalid("malformed feed position")
        }
        let posts = feedPosts
        return try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return ([], nil) }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) {
                try FeedQuery.threshold(db, limit: limit)
            }
            var position = position
            while true {
                let page = try Self.walk(db, posts: posts, userID: userID, filter: resolved, driver: driver, from: position, limit: limit)
                if !page.items.isEmpty { return page }
                if position.isEpochStart { return ([], nil) }
                position = position.nextEpoch
            }
        }
    }

    /// Counts every ready post the filter keeps: O(matches), it is not meant per page.
    public func countFeed(userID: Int64, filter: FeedFilter) async throws -> Int {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return 0 }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) {
                try Int(Int64.fetchOne(db, sql: "SELECT MAX(id) FROM posts") ?? 0)
            }
            let (body, arguments) = FeedQuery.body(userID: userID, filter: resolved, driver: driver, column: 0)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) " + body, arguments: arguments) ?? 0
        }
    }

    /// SQLite's plan for the page query `feedPage` would run, one line per plan step; for
    /// `reelhouse doctor` and the tests that pin the index use.
    func feedQueryPlan(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> [String] {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) {
                try FeedQuery.threshold(db, limit: limit)
            }
            let after = position.lastKey.flatMap { key in position.lastID.map { (key: key, id: $0) } }
            let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
            let (sql, arguments) = FeedQuery.page(
                userID: userID, filter: resolved, driver: driver, order: order, phase: position.phase, after: after, limit: limit + 1
            )
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    /// Up to `limit` items of `from`'s epoch after `from`, and where the walk continues.
    private static func walk(
        _ db: Database, posts: FeedPostCache, userID: Int64, filter: ResolvedFeedFilter, driver: FeedDriver, from position: FeedPosition, limit: Int
    ) throws -> (items: [FeedItem], next: FeedPosition?) {
        let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
        var rows: [(phase: Int, row: FeedRow)] = []
        var phase = position.phase
        var after = position.lastKey.flatMap { key in position.lastID.map { (key: key, id: $0) } }
        while phase <= 1, rows.count <= limit {
            let (sql, arguments) = FeedQuery.page(
                userID: userID, filter: filter, driver: driver, order: order, phase: phase, after: after,
                limit: limit + 1 - rows.count
            )
            // A cached statement: the page's SQL has only a few shapes, and preparing it (with GRDB's
            // authorizer) cost more than running it. A cursor reads each row in place, uncopied.
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try cursor.next() { rows.append((phase, FeedRow(row))) }
            if rows.count <= limit {
                phase += 1
                after = nil
            }
        }
        let page = rows.prefix(limit)
        let items = try posts.items(db, rows: page.map(\.row))
        guard rows.count > limit, let last = page.last else { return (items, position.nextEpoch) }
        let next = FeedPosition(
            seed: position.seed, epoch: position.epoch, phase: last.phase, lastKey: last.row.feedKey, lastID: last.row.id
        )
        return (items, next)
    }
}

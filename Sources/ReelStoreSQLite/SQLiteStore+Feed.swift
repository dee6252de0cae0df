import Foundation
import GRDB
import ReelModels
import ReelStore
import ReelStoreCore

/// The feed's rows in SQLite (see `FeedBackend`; the walk over epochs, the cursors and the post
/// cache are the store core's). Each call is one read that resolves the filter, picks the
/// cheapest driver (`FeedQuery.chooseDriver`) and reads the narrow rows.
extension SQLiteStore: FeedBackend {
    /// The largest page served (the store core's bound).
    public static var maxFeedPage: Int { FeedPaging.maxPage }

    public func shuffledRows(
        userID: Int64, filter: FeedFilter, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int
    ) async throws -> [FeedRow]? {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return nil }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) { try FeedQuery.threshold(db, limit: limit) }
            let (sql, arguments) = FeedQuery.page(
                userID: userID, filter: resolved, driver: driver, order: order, phase: phase, after: after, limit: limit
            )
            // A cached statement: the page's SQL has only a few shapes, and preparing it (with GRDB's
            // authorizer) cost more than running it. A cursor reads each row in place, uncopied.
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            var rows: [FeedRow] = []
            while let row = try cursor.next() { rows.append(FeedRow(row)) }
            return try self.bringingMissingPosts(db, rows)
        }
    }

    /// `rows` with the posts the cache does not hold at their revision read in the same read
    /// (`FeedRow.post`): on a large library almost every page misses, and a second read cost a
    /// second hop onto a reader's queue and back.
    private func bringingMissingPosts(_ db: Database, _ rows: [FeedRow]) throws -> [FeedRow] {
        let missing = postCache.misses(in: rows)
        guard !missing.isEmpty else { return rows }
        let posts = Dictionary(try loadPosts(db, ids: missing).map { ($0.post.id, $0) }) { first, _ in first }
        return rows.map { row in
            var row = row
            row.post = posts[row.id]
            return row
        }
    }

    public func countMatches(userID: Int64, filter: FeedFilter) async throws -> Int? {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return nil }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) {
                try Int(Int64.fetchOne(db, sql: "SELECT MAX(id) FROM posts") ?? 0)
            }
            let (body, arguments) = FeedQuery.body(userID: userID, filter: resolved, driver: driver, column: 0)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) " + body, arguments: arguments) ?? 0
        }
    }

    /// A keyset walk of `posts_ready_by_added` backwards from (`date_added`, id) of the last post
    /// served, or — for a filter that keeps few posts — those few sorted, the same driver choice
    /// as the shuffled feed.
    public func latestRows(userID: Int64, filter: FeedFilter, after: LatestPosition?, limit: Int) async throws -> [(row: FeedRow, addedAt: Double)]? {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            if resolved.matchesNothing { return nil }
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) { try FeedQuery.threshold(db, limit: limit) }
            var (sql, arguments) = FeedQuery.body(userID: userID, filter: resolved, driver: driver, column: 0, walkIndex: "posts_ready_by_added")
            if let after {
                sql += " AND (p.date_added, p.id) < (?, ?)"
                arguments += [after.addedAt, after.id]
            }
            sql = FeedQuery.narrowSelect + ", p.date_added " + sql + " ORDER BY p.date_added DESC, p.id DESC LIMIT ?"
            var rows: [(row: FeedRow, addedAt: Double)] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments + [limit])
            while let row = try cursor.next() { rows.append((FeedRow(row), row[7])) }
            let withPosts = try self.bringingMissingPosts(db, rows.map(\.row))
            return zip(withPosts, rows).map { ($0, $1.addedAt) }
        }
    }

    public func viewerRows(userID: Int64, ids: [Int64]) async throws -> [FeedRow] {
        try await read { db in
            try Row.fetchAll(db.makeStatement(sql: FeedQuery.narrowSelect + """
                 FROM posts p LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id
                WHERE p.id IN (\(Self.placeholders(ids.count)))
                """), arguments: [userID] + StatementArguments(ids)).map(FeedRow.init)
        }
    }

    public func postsForCache(ids: [Int64]) async throws -> [FeedItem] {
        try await read { db in try self.loadPosts(db, ids: ids) }
    }

    /// The posts of `ids` with their refs and revisions. Decoded from the statement's row as it
    /// steps, not from rows copied first: on 1M posts every item of a page is read here.
    private func loadPosts(_ db: Database, ids: [Int64]) throws -> [FeedItem] {
        let refs = try PostRefs(db, postIDs: ids)
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT * FROM posts WHERE id IN (\(Self.placeholders(ids.count)))"), arguments: StatementArguments(ids)
        )
        var columns: PostColumns?
        var items: [FeedItem] = []
        items.reserveCapacity(ids.count)
        while let row = try cursor.next() {
            let known = try columns ?? PostColumns(row)
            columns = known
            var item = try Self.decodeItem(row, columns: known, refs: refs)
            if let revision = known.revision { item.revision = row[revision] }
            items.append(item)
        }
        return items
    }

    /// SQLite's plan for the page query `feedPage` would run, one line per plan step; for
    /// `reelhouse doctor` and the tests that pin the index use.
    func feedQueryPlan(userID: Int64, filter: FeedFilter, position: FeedPosition, limit: Int) async throws -> [String] {
        try await read { db in
            let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
            let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: resolved) {
                try FeedQuery.threshold(db, limit: limit)
            }
            let after = position.lastKey.flatMap { key in position.lastID.map { FeedKeyset(key: key, id: $0) } }
            let order = FeedShuffle.order(seed: position.seed, epoch: position.epoch)
            let (sql, arguments) = FeedQuery.page(
                userID: userID, filter: resolved, driver: driver, order: order, phase: position.phase, after: after, limit: limit + 1
            )
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }
}

extension FeedRow {
    /// The first columns of a narrow select (`FeedQuery.Column`), read where the statement holds them.
    init(_ row: Row) {
        self.init(
            id: row[FeedQuery.Column.id], revision: row[FeedQuery.Column.revision], key: row[FeedQuery.Column.feedKey],
            viewer: RowDecoding.viewerState(row, columns: FeedQuery.Column.viewer)
        )
    }
}

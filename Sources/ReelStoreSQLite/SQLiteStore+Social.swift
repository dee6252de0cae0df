import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    public func setFavorite(userID: Int64, postID: Int64, favorited: Bool, now: Date) async throws {
        if favorited {
            try await upsertState(userID: userID, postID: postID, column: "favorited_at", sql: "COALESCE(favorited_at, excluded.favorited_at)", value: RowDecoding.seconds(now))
        } else {
            try await upsertState(userID: userID, postID: postID, column: "favorited_at", sql: "NULL", value: nil)
        }
    }

    public func setRating(userID: Int64, postID: Int64, rating: Int, now: Date) async throws {
        guard (0...5).contains(rating) else { throw StoreError.invalid("a rating is 0 to 5, not \(rating)") }
        try await upsertState(userID: userID, postID: postID, column: "rating", sql: "excluded.rating", value: rating)
    }

    public func setPosition(userID: Int64, postID: Int64, seconds: Double?, now: Date) async throws {
        if let seconds, !(seconds.isFinite && seconds >= 0) {
            throw StoreError.invalid("a playback position is a non-negative number of seconds, not \(seconds)")
        }
        // When it was saved too: Continue watching lists the most recent first.
        let savedAt = seconds.map { _ in RowDecoding.seconds(now) }
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Self.requireUser(db, id: userID)
            try db.execute(
                sql: """
                    INSERT INTO post_user_state (user_id, post_id, position, position_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, post_id) DO UPDATE SET position = excluded.position, position_at = excluded.position_at
                    """,
                arguments: [userID, postID, seconds, savedAt]
            )
        }
    }

    public func markSeen(userID: Int64, postID: Int64, now: Date) async throws {
        try await upsertState(userID: userID, postID: postID, column: "seen_at", sql: "excluded.seen_at", value: RowDecoding.seconds(now))
    }

    public func viewerStates(userID: Int64, postIDs: [Int64]) async throws -> [Int64: ViewerState] {
        try await read { db in
            var result = Dictionary(postIDs.map { ($0, ViewerState.none) }, uniquingKeysWith: { first, _ in first })
            var start = 0
            while start < postIDs.count {
                let chunk = Array(postIDs[start..<min(start + 500, postIDs.count)])
                start += chunk.count
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT post_id, favorited_at, rating, position, seen_at FROM post_user_state
                        WHERE user_id = ? AND post_id IN (\(Self.placeholders(chunk.count)))
                        """,
                    arguments: [userID] + StatementArguments(chunk)
                )
                for row in rows {
                    result[row["post_id"]] = RowDecoding.viewerState(row)
                }
            }
            return result
        }
    }

    public func addTags(postID: Int64, tags: [String]) async throws {
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Vocabulary.tags.attach(db, postID: postID, names: tags)
        }
    }

    public func removeTag(postID: Int64, tag: String) async throws {
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Vocabulary.tags.detach(db, postID: postID, name: tag)
        }
    }

    public func addFlag(postID: Int64, flag: String) async throws {
        guard !TagName.isBlank(flag) else { throw StoreError.invalid("a flag cannot be blank") }
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Vocabulary.flags.attach(db, postID: postID, names: [flag])
        }
    }

    public func removeFlag(postID: Int64, flag: String) async throws {
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Vocabulary.flags.detach(db, postID: postID, name: flag)
        }
    }

    /// Scans every tag link of ready posts: O(links), fine for a tag cloud that is cached by
    /// the client, not for a per-request hot path.
    public func tagCounts() async throws -> [TagCount] {
        try await read { db in try Vocabulary.tags.counts(db) }
    }

    public func tagCounts(userID: Int64) async throws -> [TagCount] {
        try await read { db in
            switch try Self.scope(db, userID: userID, requested: nil) {
            case .all: try Vocabulary.tags.counts(db)
            case .only(let ids): try Vocabulary.tags.counts(db, libraryIDs: ids)
            }
        }
    }

    public func tagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]] {
        try await read { db in try Vocabulary.tags.refs(db, postIDs: postIDs) }
    }

    public func flagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]] {
        try await read { db in try Vocabulary.flags.refs(db, postIDs: postIDs) }
    }

    /// Walks the partial index `(user_id, favorited_at, post_id)` backwards from the cursor.
    public func favorites(userID: Int64, library: Int64?, after: FavoritesCursor?, limit: Int) async throws -> (posts: [Post], next: FavoritesCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one post, not \(limit)") }
        return try await read { db in
            var sql = """
                SELECT p.*, s.favorited_at AS favorite_time
                FROM post_user_state s JOIN posts p ON p.id = s.post_id
                WHERE s.user_id = ? AND s.favorited_at IS NOT NULL AND p.status = 'ready'
                """
            var arguments: StatementArguments = [userID]
            if case .only(let ids) = try Self.scope(db, userID: userID, requested: library) {
                sql += " AND p.library_id IN (\(Self.placeholders(ids.count)))"
                arguments += StatementArguments(ids)
            }
            if let after {
                sql += " AND (s.favorited_at, s.post_id) < (?, ?)"
                arguments += [after.favoritedAt, after.postID]
            }
            sql += " ORDER BY s.favorited_at DESC, s.post_id DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let page = Array(rows.prefix(limit))
            let posts = try Self.decodePosts(db, rows: page)
            guard rows.count > limit, let last = page.last else { return (posts, nil) }
            return (posts, FavoritesCursor(favoritedAt: last["favorite_time"], postID: last["id"]))
        }
    }

    // MARK: - Helpers

    /// Creates or updates the (user, post) row, setting one column: `value` for a new row,
    /// `sql` (which may refer to `excluded.<column>`) for an existing one.
    private func upsertState(userID: Int64, postID: Int64, column: String, sql: String, value: (any DatabaseValueConvertible & Sendable)?) async throws {
        try await write { db in
            try Self.requirePost(db, id: postID)
            try Self.requireUser(db, id: userID)
            try db.execute(
                sql: """
                    INSERT INTO post_user_state (user_id, post_id, \(column)) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, post_id) DO UPDATE SET \(column) = \(sql)
                    """,
                arguments: [userID, postID, value]
            )
        }
    }

    static func requirePost(_ db: Database, id: Int64) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM posts WHERE id = ?)", arguments: [id]) == true else {
            throw StoreError.notFound("post \(id)")
        }
    }
}

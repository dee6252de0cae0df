import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore: SocialStore {
    public func setFavorite(userID: Int64, postID: Int64, favorited: Bool, now: Date) async throws {
        let seconds: Double? = favorited ? now.timeIntervalSince1970 : nil
        try await upsertState(userID: userID, postID: postID) { connection in
            // Favoriting twice keeps the first time; unfavoriting clears it.
            try await connection.query("""
                INSERT INTO post_user_state (user_id, post_id, favorited_at) VALUES (\(userID), \(postID), \(seconds))
                ON CONFLICT (user_id, post_id) DO UPDATE SET favorited_at =
                    CASE WHEN EXCLUDED.favorited_at IS NULL THEN NULL
                         ELSE COALESCE(post_user_state.favorited_at, EXCLUDED.favorited_at) END
                """, logger: logger)
        }
    }

    public func setRating(userID: Int64, postID: Int64, rating: Int, now: Date) async throws {
        guard (0...5).contains(rating) else { throw StoreError.invalid("a rating is 0 to 5, not \(rating)") }
        try await upsertState(userID: userID, postID: postID) { connection in
            try await connection.query("""
                INSERT INTO post_user_state (user_id, post_id, rating) VALUES (\(userID), \(postID), \(rating))
                ON CONFLICT (user_id, post_id) DO UPDATE SET rating = EXCLUDED.rating
                """, logger: logger)
        }
    }

    public func setPosition(userID: Int64, postID: Int64, seconds: Double?, now: Date) async throws {
        if let seconds, !(seconds.isFinite && seconds >= 0) {
            throw StoreError.invalid("a playback position is a non-negative number of seconds, not \(seconds)")
        }
        // When it was saved too: Continue watching lists the most recent first.
        let savedAt = seconds.map { _ in now.timeIntervalSince1970 }
        try await upsertState(userID: userID, postID: postID) { connection in
            try await connection.query("""
                INSERT INTO post_user_state (user_id, post_id, position, position_at) VALUES (\(userID), \(postID), \(seconds), \(savedAt))
                ON CONFLICT (user_id, post_id) DO UPDATE SET position = EXCLUDED.position, position_at = EXCLUDED.position_at
                """, logger: logger)
        }
    }

    public func markSeen(userID: Int64, postID: Int64, now: Date) async throws {
        try await upsertState(userID: userID, postID: postID) { connection in
            try await connection.query("""
                INSERT INTO post_user_state (user_id, post_id, seen_at) VALUES (\(userID), \(postID), \(now.timeIntervalSince1970))
                ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
                """, logger: logger)
        }
    }

    public func viewerStates(userID: Int64, postIDs: [Int64]) async throws -> [Int64: ViewerState] {
        try await read { connection in
            var result = Dictionary(postIDs.map { ($0, ViewerState.none) }, uniquingKeysWith: { first, _ in first })
            guard !postIDs.isEmpty else { return result }
            let rows = try await connection.query("""
                SELECT post_id, favorited_at, rating, position, seen_at FROM post_user_state
                WHERE user_id = \(userID) AND post_id = ANY(\(postIDs))
                """, logger: logger).collect()
            for row in rows {
                let (postID, favoritedAt, rating, position, seenAt) = try row.decode((Int64, Double?, Int32, Double?, Double?).self)
                result[postID] = Self.viewerState(favoritedAt: favoritedAt, rating: rating, position: position, seenAt: seenAt)
            }
            return result
        }
    }

    public func addTags(postID: Int64, tags: [String]) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", postID, missing: "post \(postID)", logger: logger)
            try await Vocabulary.tags.attach(connection, postID: postID, names: tags, logger: logger)
        }
    }

    public func removeTag(postID: Int64, tag: String) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", postID, missing: "post \(postID)", logger: logger)
            try await Vocabulary.tags.detach(connection, postID: postID, name: tag, logger: logger)
        }
    }

    public func addFlag(postID: Int64, flag: String) async throws {
        guard !TagName.isBlank(flag) else { throw StoreError.invalid("a flag cannot be blank") }
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", postID, missing: "post \(postID)", logger: logger)
            try await Vocabulary.flags.attach(connection, postID: postID, names: [flag], logger: logger)
        }
    }

    public func removeFlag(postID: Int64, flag: String) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1", postID, missing: "post \(postID)", logger: logger)
            try await Vocabulary.flags.detach(connection, postID: postID, name: flag, logger: logger)
        }
    }

    public func tagCounts() async throws -> [TagCount] {
        try await read { connection in try await Vocabulary.tags.counts(connection, logger: logger) }
    }

    public func tagCounts(userID: Int64) async throws -> [TagCount] {
        try await snapshot { connection in
            let scope = try await Self.scope(connection, userID: userID, requested: nil, logger: logger)
            return try await Vocabulary.tags.counts(connection, libraryIDs: scope.libraryIDs, logger: logger)
        }
    }

    public func tagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]] {
        try await read { connection in try await Vocabulary.tags.refs(connection, postIDs: postIDs, logger: logger) }
    }

    public func flagRefs(postIDs: [Int64]) async throws -> [Int64: [TagCount]] {
        try await read { connection in try await Vocabulary.flags.refs(connection, postIDs: postIDs, logger: logger) }
    }

    /// Walks the partial index `(user_id, favorited_at, post_id)` backwards from the cursor.
    public func favorites(userID: Int64, library: Int64?, after: FavoritesCursor?, limit: Int) async throws -> (posts: [Post], next: FavoritesCursor?) {
        guard limit > 0 else { throw StoreError.invalid("a page holds at least one post, not \(limit)") }
        return try await snapshot { connection in
            let libraryIDs = try await Self.scope(connection, userID: userID, requested: library, logger: logger).libraryIDs
            let rows = try await connection.query("""
                SELECT s.post_id, s.favorited_at
                FROM post_user_state s JOIN posts p ON p.id = s.post_id
                WHERE s.user_id = \(userID) AND s.favorited_at IS NOT NULL AND p.status = 'ready'
                  AND (\(libraryIDs)::bigint[] IS NULL OR p.library_id = ANY(\(libraryIDs)::bigint[]))
                  AND (\(after?.favoritedAt)::double precision IS NULL
                       OR (s.favorited_at, s.post_id) < (\(after?.favoritedAt)::double precision, \(after?.postID)::bigint))
                ORDER BY s.favorited_at DESC, s.post_id DESC
                LIMIT \(limit + 1)
                """, logger: logger).collect()
            let page = try rows.prefix(limit).map { try $0.decode((Int64, Double).self) }
            let posts = try await Self.posts(connection, ids: page.map(\.0), logger: logger)
            guard rows.count > limit, let last = page.last else { return (posts, nil) }
            return (posts, FavoritesCursor(favoritedAt: last.1, postID: last.0))
        }
    }

    // MARK: - Helpers

    /// Checks the post and the user exist (`StoreError.notFound` as SQLite's store says it),
    /// then runs the upsert, in one transaction.
    private func upsertState(userID: Int64, postID: Int64, _ upsert: (PostgresConnection) async throws -> PostgresRowSequence) async throws {
        try await write { connection in
            try await Self.requireRow(connection, "SELECT 1 FROM posts WHERE id = $1 FOR SHARE", postID, missing: "post \(postID)", logger: logger)
            try await Self.requireUser(connection, id: userID, logger: logger)
            _ = try await upsert(connection)
        }
    }

    static func viewerState(favoritedAt: Double?, rating: Int32?, position: Double?, seenAt: Double?) -> ViewerState {
        ViewerState(
            isFavorited: favoritedAt != nil, rating: Int(rating ?? 0), position: position,
            seenAt: seenAt.map(Date.init(timeIntervalSince1970:))
        )
    }

    /// Posts by id, in the order of `ids` (missing ones left out).
    static func posts(_ connection: PostgresConnection, ids: [Int64], logger: Logger) async throws -> [Post] {
        guard !ids.isEmpty else { return [] }
        let found = try await fetchPosts(connection, where: "id = ANY($1)", [ids], logger: logger)
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// Which libraries `userID` may see (SQLite's `scope`): owners every one; members those
    /// granted (every one when granted all). A requested library not visible is `notFound`.
    static func scope(_ connection: PostgresConnection, userID: Int64, requested: Int64?, logger: Logger) async throws -> LibraryScope {
        let rows = try await connection.query("""
            SELECT u.role, (SELECT count(*) FROM libraries),
                   ARRAY(SELECT library_id FROM library_grants g WHERE g.user_id = u.id ORDER BY library_id),
                   EXISTS (SELECT 1 FROM libraries WHERE id = \(requested ?? 0))
            FROM users u WHERE u.id = \(userID)
            """, logger: logger).collect()
        let facts = try rows.first.map { row in
            let (role, count, granted, requestedExists) = try row.decode((String, Int64, [Int64], Bool).self)
            return ScopeFacts(role: UserRole(rawValue: role), libraryCount: Int(count), granted: granted, requestedExists: requestedExists)
        }
        return try LibraryScope.resolve(facts, requested: requested)
    }
}

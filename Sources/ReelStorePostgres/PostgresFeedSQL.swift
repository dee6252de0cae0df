import Foundation
import PostgresNIO
import ReelModels
import ReelStore
import ReelStoreCore

/// A listing's query under construction: SQL with `$n` placeholders and their bindings in step.
struct PostgresFeedSQL {
    var sql = ""
    var bindings = PostgresBindings()
    private var count = 0

    /// Binds `value` and returns its placeholder.
    mutating func bind<Value: PostgresNonThrowingEncodable>(_ value: Value) -> String {
        bindings.append(value)
        count += 1
        return "$\(count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: bindings) }

    /// ` WHERE …`: a ready post the resolved filter keeps and the viewer did not hide. The
    /// literal `status = 'ready'` is what lets the planner use the partial indexes.
    mutating func appendConditions(userID: Int64, filter: ResolvedFeedFilter) {
        sql += " WHERE p.status = 'ready'"
        if filter.hidesPosts {
            sql += " AND NOT EXISTS (SELECT 1 FROM hidden_posts h WHERE h.user_id = \(bind(userID)) AND h.post_id = p.id)"
        }
        if !filter.hiddenUploaderKeys.isEmpty {
            // coalesce: a post with no uploader at all is never hidden.
            sql += " AND coalesce(p.uploader_key, '') <> ALL(\(bind(filter.hiddenUploaderKeys)))"
        }
        if let ids = filter.anyTagIDs {
            sql += " AND EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\(bind(ids))))"
        }
        if !filter.excludeTagIDs.isEmpty {
            sql += " AND NOT EXISTS (SELECT 1 FROM post_tag_ids x WHERE x.post_id = p.id AND x.tag_id = ANY(\(bind(filter.excludeTagIDs))))"
        }
        if let ids = filter.libraryIDs {
            sql += " AND p.library_id = ANY(\(bind(ids)))"
        }
        appendViewerConditions(userID: userID, kind: filter.kind, favoritesOnly: filter.favoritesOnly, minRating: filter.minRating)
    }

    /// The same conditions with the filter resolved inside the statement itself, so a page is
    /// one round trip: the viewer's libraries (an owner's initplan is evaluated once; a member's
    /// grants are a hashed subplan), hidden posts and uploaders, tag names through their keys.
    /// A library asked for by name is checked first (one small query, only then), because one
    /// not granted must be `StoreError.notFound`, not an empty page.
    mutating func appendConditions(userID: Int64, unresolved filter: FeedFilter, store: PostgresStore) async throws {
        let requested = try await filter.library.asyncMap { try await store.scope(userID: userID, requested: $0) }
        let user = bind(userID)
        appendReadyAndNotHidden(user)
        if let wanted = ResolvedFeedFilter.wantedTags(filter) {
            sql += " AND EXISTS (SELECT 1 FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id AND t.name_key = ANY(\(bind(wanted.map(TagName.key)))))"
        }
        let excluded = filter.excludeTags.filter { !TagName.isBlank($0) }
        if !excluded.isEmpty {
            sql += " AND NOT EXISTS (SELECT 1 FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id AND t.name_key = ANY(\(bind(excluded.map(TagName.key)))))"
        }
        if let ids = requested?.libraryIDs {
            sql += " AND p.library_id = ANY(\(bind(ids)))"
        } else {
            appendGrantedLibraries(user)
        }
        appendViewerConditions(userID: userID, kind: filter.kind, favoritesOnly: filter.favoritesOnly, minRating: ResolvedFeedFilter.minimumRating(filter))
    }

    /// Whether `filter` asks for nothing (no tags, library, kind, favourites or rating): the
    /// feed most requests ask for, whose page is a prepared statement (`UnfilteredFeedPage`).
    static func isUnfiltered(_ filter: FeedFilter) -> Bool {
        ResolvedFeedFilter.wantedTags(filter) == nil && !filter.excludeTags.contains { !TagName.isBlank($0) } && filter.library == nil
            && filter.kind == nil && !filter.favoritesOnly && ResolvedFeedFilter.minimumRating(filter) == nil
    }

    /// `appendConditions(userID:unresolved:store:)` for an unfiltered feed: the same SQL, with
    /// no query before it (no library was asked for by name).
    mutating func appendUnfilteredConditions(userID: Int64) {
        let user = bind(userID)
        appendReadyAndNotHidden(user)
        appendGrantedLibraries(user)
    }

    /// Ready posts the viewer has not hidden, nor hidden the uploader of (`user`: the viewer's
    /// bound id). How both `appendConditions` variants begin.
    private mutating func appendReadyAndNotHidden(_ user: String) {
        sql += " WHERE p.status = 'ready'"
        sql += " AND NOT EXISTS (SELECT 1 FROM hidden_posts h WHERE h.user_id = \(user) AND h.post_id = p.id)"
        // coalesce: a post with no uploader at all is never hidden.
        sql += " AND coalesce(p.uploader_key, '') <> ALL(ARRAY(SELECT uploader_key FROM hidden_uploaders WHERE user_id = \(user)))"
    }

    /// The libraries the viewer may see: every one for an owner, their grants for a member.
    private mutating func appendGrantedLibraries(_ user: String) {
        sql += " AND (EXISTS (SELECT 1 FROM users u WHERE u.id = \(user) AND u.role = '\(UserRole.owner.rawValue)')"
            + " OR p.library_id IN (SELECT g.library_id FROM library_grants g WHERE g.user_id = \(user)))"
    }

    private mutating func appendViewerConditions(userID: Int64, kind: PostKind?, favoritesOnly: Bool, minRating: Int?) {
        if let kind {
            sql += " AND p.kind = \(bind(kind.rawValue))"
        }
        if favoritesOnly {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state f WHERE f.user_id = \(bind(userID)) AND f.post_id = p.id AND f.favorited_at IS NOT NULL)"
        }
        if let minRating {
            sql += " AND EXISTS (SELECT 1 FROM post_user_state r WHERE r.user_id = \(bind(userID)) AND r.post_id = p.id AND r.rating >= \(bind(minRating)))"
        }
    }

    /// One phase's slice of an epoch after `after`, in walking order (`FeedBackend.shuffledRows`),
    /// with `conditions` appending the WHERE clause.
    static func page(
        userID: Int64, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int,
        conditions: (inout PostgresFeedSQL) async throws -> Void
    ) async throws -> PostgresQuery {
        var query = pageHead(userID: userID, order: order)
        try await conditions(&query)
        query.appendPageBounds(order: order, phase: phase, after: after, limit: limit)
        return query.query
    }

    /// `page` of an unfiltered feed, built without a query: `UnfilteredFeedPage` takes both its
    /// SQL and its bindings from here, so the two cannot drift apart.
    static func unfilteredPage(userID: Int64, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int) -> PostgresFeedSQL {
        var query = pageHead(userID: userID, order: order)
        query.appendUnfilteredConditions(userID: userID)
        query.appendPageBounds(order: order, phase: phase, after: after, limit: limit)
        return query
    }

    private static func pageHead(userID: Int64, order: FeedShuffle.EpochOrder) -> PostgresFeedSQL {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id, p.revision, p.shuffle\(order.column) AS feed_key, s.favorited_at, s.rating, s.position, s.seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = \(query.bind(userID)) AND s.post_id = p.id
            """
        return query
    }

    private mutating func appendPageBounds(order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int) {
        let key = "p.shuffle\(order.column)"
        let upperPart = (phase == 0) != order.descending
        sql += upperPart ? " AND \(key) >= \(bind(order.start))" : " AND \(key) < \(bind(order.start))"
        if let after {
            let bound = "(\(bind(after.key)), \(bind(after.id)))"
            sql += order.descending ? " AND (\(key), p.id) < \(bound)" : " AND (\(key), p.id) > \(bound)"
        }
        let direction = order.descending ? "DESC" : "ASC"
        sql += " ORDER BY \(key) \(direction), p.id \(direction) LIMIT \(bind(limit))"
    }

    /// `bind`, or a literal NULL (typed by the column it lands in).
    mutating func bindOrNull<Value: PostgresNonThrowingEncodable>(_ value: Value?) -> String {
        value.map { bind($0) } ?? "NULL"
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// Records one person's batch of watch events inside the caller's transaction, as SQLite's
/// `EventIngest` does: every post checked first (`EventPostFacts.refusal`, so a refused batch
/// writes nothing), the events inserted in one multi-row statement whose `ON CONFLICT DO
/// NOTHING … RETURNING` names the new ones (a resent id is skipped by the primary key), then
/// the new events' effects (`EventEffects`) written with one upsert per table.
///
/// The aggregates merge in the upsert itself rather than being read, changed and written
/// back: a signal row adds its counts, an affinity decays the stored score to the later
/// instant and adds the batch's, a popularity key log-sum-exps the batch's key into the
/// stored one. So batches of different people about one post (or two of one person) may run
/// at once without losing an update (rows are written in key order, so two batches never
/// deadlock), and a batch is a fixed number of statements. (The sums
/// equal the SQLite store's event-by-event folds up to floating-point rounding.)
enum PostgresEventIngest {
    /// Rows per multi-row INSERT: 9 parameters each, well under PostgreSQL's 65,535.
    static let rowsPerStatement = 1_000

    static func record(
        _ connection: PostgresConnection, userID: Int64, events: [WatchEvent], aggregation: any EventAggregation, logger: Logger
    ) async throws -> EventBatchOutcome {
        let posts = try await postFacts(connection, ids: Array(Set(events.map(\.postID))), locking: true, logger: logger)
        let scope = try await PostgresStore.scope(connection, userID: userID, requested: nil, logger: logger)
        if let refusal = EventPostFacts.refusal(of: events, posts: posts, scope: scope) { return refusal }
        return try await store(connection, userID: userID, events: events, posts: posts, aggregation: aggregation, logger: logger)
    }

    /// Inserts a checked batch and writes its new events' effects (`posts`: the facts of every
    /// post the events name).
    static func store(
        _ connection: PostgresConnection, userID: Int64, events: [WatchEvent], posts: [Int64: EventPostFacts],
        aggregation: any EventAggregation, logger: Logger
    ) async throws -> EventBatchOutcome {
        // The first of each id is the one stored (a repeat within the batch is a duplicate).
        var firstIDs = Set<UUID>()
        let candidates = events.filter { firstIDs.insert($0.id).inserted }
        var inserted = Set<UUID>()
        for start in stride(from: 0, to: candidates.count, by: rowsPerStatement) {
            let chunk = candidates[start..<min(start + rowsPerStatement, candidates.count)]
            inserted.formUnion(try await insertEvents(connection, userID: userID, chunk, logger: logger))
        }
        let new = candidates.compactMap { event in
            inserted.contains(event.id) ? posts[event.postID].map { (event: event, post: $0) } : nil
        }
        try await write(aggregation.effects(of: new), connection, userID: userID, aggregation: aggregation, logger: logger)
        return .recorded(accepted: inserted.count, duplicates: events.count - inserted.count)
    }

    /// Inserts `events`; answers the ids that were new.
    private static func insertEvents(
        _ connection: PostgresConnection, userID: Int64, _ events: ArraySlice<WatchEvent>, logger: Logger
    ) async throws -> [UUID] {
        var query = PostgresFeedSQL()
        let user = query.bind(userID)
        let rows = events.map { event in
            [
                user, query.bind(event.id), query.bind(event.postID), query.bind(event.type.code), query.bind(event.at.timeIntervalSince1970),
                query.bindOrNull(event.watchedMs), query.bindOrNull(event.durationMs), query.bindOrNull(event.loops), query.bindOrNull(event.value),
            ].joined(separator: ", ")
        }
        query.sql = """
            INSERT INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
            VALUES (\(rows.joined(separator: "), ("))) ON CONFLICT (user_id, event_id) DO NOTHING RETURNING event_id
            """
        return try await connection.query(query.query, logger: logger).collect().map { try $0.decode(UUID.self) }
    }

    /// Status, library, uploader and tags of `ids` (absent ids are missing from the answer), in
    /// one query. `locking`: the posts are share-locked, so none is deleted before the batch
    /// commits.
    static func postFacts(_ connection: PostgresConnection, ids: [Int64], locking: Bool, logger: Logger) async throws -> [Int64: EventPostFacts] {
        guard !ids.isEmpty else { return [:] }
        let lock = locking ? " FOR KEY SHARE" : ""
        var facts: [Int64: EventPostFacts] = [:]
        let rows = try await connection.query("""
            SELECT p.id, p.status, p.library_id, p.uploader, p.username,
                   ARRAY(SELECT t.name FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = p.id ORDER BY l.seq)
            FROM posts p WHERE p.id = ANY(\(ids))\(unescaped: lock)
            """, logger: logger).collect()
        for row in rows {
            let (id, status, libraryID, uploader, username, tags) = try row.decode((Int64, String, Int64, String?, String?, [String]).self)
            facts[id] = EventPostFacts(
                status: status, libraryID: libraryID, uploaderName: UploaderKey.name(uploader: uploader, username: username), tags: tags
            )
        }
        return facts
    }

    /// Writes a batch's effects: one upsert per table (chunked for a bulk load).
    static func write(
        _ effects: EventEffects, _ connection: PostgresConnection, userID: Int64, aggregation: any EventAggregation, logger: Logger
    ) async throws {
        let signals = effects.signals.sorted { $0.key < $1.key }
        for start in stride(from: 0, to: signals.count, by: rowsPerStatement) {
            try await upsertSignals(connection, userID: userID, signals[start..<min(start + rowsPerStatement, signals.count)], logger: logger)
        }
        let affinities = effects.affinities.compactMap { key, additions in
            aggregation.affinity(stored: nil, adding: additions).map { (key: key, state: $0) }
        }.sorted { ($0.key.kind.rawValue, $0.key.key) < ($1.key.kind.rawValue, $1.key.key) }
        for start in stride(from: 0, to: affinities.count, by: rowsPerStatement) {
            var query = PostgresFeedSQL()
            let user = query.bind(userID)
            let rows = affinities[start..<min(start + rowsPerStatement, affinities.count)].map { row in
                "(\(user), \(query.bind(row.key.kind.rawValue)), \(query.bind(row.key.key)), \(query.bind(row.state.score)), \(query.bind(row.state.at.timeIntervalSince1970)))"
            }
            // The stored score decays to the later instant before the batch's (decayed to it) is added.
            query.sql = """
                INSERT INTO user_affinities AS a (user_id, kind, key, score, updated_at) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (user_id, kind, key) DO UPDATE SET
                    score = CASE WHEN excluded.updated_at >= a.updated_at
                                 THEN a.score * exp((a.updated_at - excluded.updated_at) / \(aggregation.affinityDecaySeconds)::float8) + excluded.score
                                 ELSE a.score + excluded.score * exp((excluded.updated_at - a.updated_at) / \(aggregation.affinityDecaySeconds)::float8) END,
                    updated_at = greatest(a.updated_at, excluded.updated_at)
                """
            try await connection.query(query.query, logger: logger)
        }
        let popularity = effects.popularity.compactMap { postID, additions in
            aggregation.popularityKey(stored: nil, adding: additions).map { (postID: postID, key: $0, events: additions.count) }
        }.sorted { $0.postID < $1.postID }
        if !popularity.isEmpty {
            // Keys add by log-sum-exp (`EventAggregation.popularityKey`): log(e^a + e^b) = high + log1p(e^(low − high)).
            try await connection.query("""
                INSERT INTO post_popularity AS p (post_id, log_score, events)
                SELECT * FROM unnest(\(popularity.map { $0.postID })::bigint[], \(popularity.map { $0.key })::float8[], \(popularity.map { Int64($0.events) })::bigint[])
                ON CONFLICT (post_id) DO UPDATE SET
                    log_score = greatest(p.log_score, excluded.log_score)
                        + ln(1 + exp(least(p.log_score, excluded.log_score) - greatest(p.log_score, excluded.log_score))),
                    events = p.events + excluded.events
                """, logger: logger)
        }
        if !effects.hiddenPosts.isEmpty {
            let hidden = effects.hiddenPosts.sorted { $0.key < $1.key }
            try await connection.query("""
                INSERT INTO hidden_posts AS h (user_id, post_id, at)
                SELECT \(userID), * FROM unnest(\(hidden.map { $0.key })::bigint[], \(hidden.map { $0.value })::float8[])
                ON CONFLICT (user_id, post_id) DO UPDATE SET at = greatest(h.at, excluded.at)
                """, logger: logger)
        }
        if !effects.hiddenUploaders.isEmpty {
            let hidden = effects.hiddenUploaders.sorted { $0.key < $1.key }
            try await connection.query("""
                INSERT INTO hidden_uploaders AS h (user_id, uploader_key, uploader, at)
                SELECT \(userID), * FROM unnest(\(hidden.map { $0.key })::text[], \(hidden.map { $0.value.name })::text[], \(hidden.map { $0.value.at })::float8[])
                ON CONFLICT (user_id, uploader_key) DO UPDATE SET uploader = excluded.uploader, at = greatest(h.at, excluded.at)
                """, logger: logger)
        }
    }

    private static func upsertSignals(
        _ connection: PostgresConnection, userID: Int64, _ signals: ArraySlice<(key: Int64, value: PostSignal)>, logger: Logger
    ) async throws {
        guard !signals.isEmpty else { return }
        var query = PostgresFeedSQL()
        let user = query.bind(userID)
        let rows = signals.map { postID, delta in
            [
                user, query.bind(postID), query.bind(delta.seenAt.timeIntervalSince1970),
                query.bindOrNull(delta.watchedAt?.timeIntervalSince1970), query.bind(delta.impressions), query.bind(delta.views),
                query.bind(delta.longViews), query.bind(delta.skips), query.bind(delta.watchedMs), query.bind(delta.label),
            ].joined(separator: ", ")
        }
        // greatest() skips NULLs: a shown-only row keeps its watched_at NULL until a watch.
        query.sql = """
            INSERT INTO user_post_signals AS s
                (user_id, post_id, seen_at, watched_at, impressions, views, long_views, skips, watched_ms, label)
            VALUES (\(rows.joined(separator: "), (")))
            ON CONFLICT (user_id, post_id) DO UPDATE SET
                seen_at = greatest(s.seen_at, excluded.seen_at),
                watched_at = greatest(s.watched_at, excluded.watched_at),
                impressions = s.impressions + excluded.impressions,
                views = s.views + excluded.views,
                long_views = s.long_views + excluded.long_views,
                skips = s.skips + excluded.skips,
                watched_ms = s.watched_ms + excluded.watched_ms,
                label = s.label + excluded.label
            """
        try await connection.query(query.query, logger: logger)
    }
}

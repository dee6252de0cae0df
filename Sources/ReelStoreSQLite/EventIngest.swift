import Foundation
import GRDB
import ReelModels
import ReelStore

/// Records one person's batch of watch events inside the caller's write transaction: checks
/// every post first (so a refused batch writes nothing), inserts the events (a resent id is
/// ignored by the primary key), then applies the new events' effects with one statement per
/// touched row rather than per event: a batch of 25 views of 25 posts with 3 tags each is 25
/// inserts, 25 signal upserts, ~100 affinity rows and 25 popularity rows.
enum EventIngest {
    static func record(_ db: Database, userID: Int64, events: [WatchEvent], aggregation: any EventAggregation) throws -> EventBatchOutcome {
        let posts = try postFacts(db, ids: Array(Set(events.map(\.postID))))
        let scope = try SQLiteStore.scope(db, userID: userID, requested: nil)
        if let refusal = EventPostFacts.refusal(of: events, posts: posts, scope: scope) { return refusal }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var new: [(event: WatchEvent, post: EventPostFacts)] = []
        for event in events {
            try insert.execute(arguments: [
                userID, eventIDBytes(event.id), event.postID, event.type.code, event.at.timeIntervalSince1970,
                event.watchedMs, event.durationMs, event.loops, event.value,
            ])
            // Ignored: this person already sent this id, in an earlier batch or above.
            guard db.changesCount > 0, let post = posts[event.postID] else { continue }
            new.append((event, post))
        }
        try aggregation.effects(of: new).write(db, userID: userID, aggregation: aggregation)
        return .recorded(accepted: new.count, duplicates: events.count - new.count)
    }

    /// The client's UUID as the 16 bytes `watch_events.event_id` keeps.
    static func eventIDBytes(_ id: UUID) -> Data {
        withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    /// Status, library, uploader and tags of `ids` (absent ids are missing from the answer),
    /// in chunks under SQLite's bound-parameter limit.
    static func postFacts(_ db: Database, ids: [Int64]) throws -> [Int64: EventPostFacts] {
        var facts: [Int64: EventPostFacts] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = SQLiteStore.placeholders(chunk.count)
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, status, library_id, uploader, username FROM posts WHERE id IN (\(marks))"),
                arguments: StatementArguments(chunk)
            )
            while let row = try rows.next() {
                facts[row[0]] = EventPostFacts(status: row[1], libraryID: row[2], uploaderName: UploaderKey.name(uploader: row[3], username: row[4]))
            }
            let tags = try Row.fetchCursor(
                db.cachedStatement(sql: """
                    SELECT l.post_id, t.name FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id
                    WHERE l.post_id IN (\(marks)) ORDER BY l.rowid
                    """),
                arguments: StatementArguments(chunk)
            )
            while let row = try tags.next() {
                let postID: Int64 = row[0]
                facts[postID]?.tags.append(row[1])
            }
        }
        return facts
    }
}

/// Writing a batch's effects (`EventEffects`, shared with PostgreSQL) in SQLite: one
/// statement per touched row.
extension EventEffects {
    func write(_ db: Database, userID: Int64, aggregation: any EventAggregation) throws {
        try writeSignals(db, userID: userID)
        try writeAffinities(db, userID: userID, aggregation: aggregation)
        try writePopularity(db, aggregation: aggregation)
        let hidePost = try db.cachedStatement(sql: """
            INSERT INTO hidden_posts (user_id, post_id, at) VALUES (?, ?, ?)
            ON CONFLICT (user_id, post_id) DO UPDATE SET at = max(at, excluded.at)
            """)
        for (postID, at) in hiddenPosts { try hidePost.execute(arguments: [userID, postID, at]) }
        let hideUploader = try db.cachedStatement(sql: """
            INSERT INTO hidden_uploaders (user_id, uploader_key, uploader, at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, uploader_key) DO UPDATE SET uploader = excluded.uploader, at = max(at, excluded.at)
            """)
        for (key, entry) in hiddenUploaders { try hideUploader.execute(arguments: [userID, key, entry.name, entry.at]) }
    }

    private func writeSignals(_ db: Database, userID: Int64) throws {
        // max() of SQLite is NULL when either side is: the coalesces keep the known instant.
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO user_post_signals
                (user_id, post_id, seen_at, watched_at, impressions, views, long_views, skips, watched_ms, label)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, post_id) DO UPDATE SET
                seen_at = max(seen_at, excluded.seen_at),
                watched_at = max(coalesce(watched_at, excluded.watched_at), coalesce(excluded.watched_at, watched_at)),
                impressions = impressions + excluded.impressions,
                views = views + excluded.views,
                long_views = long_views + excluded.long_views,
                skips = skips + excluded.skips,
                watched_ms = watched_ms + excluded.watched_ms,
                label = label + excluded.label
            """)
        for (postID, delta) in signals {
            try upsert.execute(arguments: [
                userID, postID, delta.seenAt.timeIntervalSince1970, delta.watchedAt?.timeIntervalSince1970, delta.impressions, delta.views, delta.longViews,
                delta.skips, delta.watchedMs, delta.label,
            ])
        }
    }

    private func writeAffinities(_ db: Database, userID: Int64, aggregation: any EventAggregation) throws {
        let current = try db.cachedStatement(sql: "SELECT score, updated_at FROM user_affinities WHERE user_id = ? AND kind = ? AND key = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO user_affinities (user_id, kind, key, score, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, kind, key) DO UPDATE SET score = excluded.score, updated_at = excluded.updated_at
            """)
        for (key, additions) in affinities {
            let stored = try Row.fetchOne(current, arguments: [userID, key.kind.rawValue, key.key])
                .map { (score: $0[0] as Double, at: Date(timeIntervalSince1970: $0[1])) }
            guard let state = aggregation.affinity(stored: stored, adding: additions) else { continue }
            try upsert.execute(arguments: [userID, key.kind.rawValue, key.key, state.score, state.at.timeIntervalSince1970])
        }
    }

    private func writePopularity(_ db: Database, aggregation: any EventAggregation) throws {
        let current = try db.cachedStatement(sql: "SELECT log_score FROM post_popularity WHERE post_id = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO post_popularity (post_id, log_score, events) VALUES (?, ?, ?)
            ON CONFLICT (post_id) DO UPDATE SET log_score = excluded.log_score, events = events + excluded.events
            """)
        for (postID, additions) in popularity {
            let stored = try Double.fetchOne(current, arguments: [postID])
            guard let key = aggregation.popularityKey(stored: stored, adding: additions) else { continue }
            try upsert.execute(arguments: [postID, key, additions.count])
        }
    }
}

import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

/// Reads a person's For You profile from the stored aggregates, with bounded work whatever the
/// length of their history: the most recent positive signals (an index walk of the history
/// index, newest first, stopping at `UserProfile.maxAnchors`), their affinity rows (one per tag
/// and uploader they interacted with) and a capped count of their events.
enum ForYouProfileQuery {
    /// Signals read for anchors: the newest watched rows with a positive label.
    static func signals(_ db: Database, userID: Int64) throws -> [PostSignal] {
        // Explicit approval is the post's current state (favorited, or rated 4 or 5): what the
        // person still stands by, so an undone favorite reads "watched", not "liked".
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT u.post_id, u.seen_at, u.watched_at, u.label,
                   EXISTS (SELECT 1 FROM post_user_state s WHERE s.user_id = u.user_id AND s.post_id = u.post_id
                           AND (s.favorited_at IS NOT NULL OR s.rating >= 4)) AS explicit
            FROM user_post_signals u INDEXED BY user_post_signals_history
            WHERE u.user_id = ? AND u.watched_at IS NOT NULL AND u.label > 0
            ORDER BY u.watched_at DESC, u.post_id DESC LIMIT ?
            """), arguments: [userID, UserProfile.maxAnchors])
        var signals: [PostSignal] = []
        while let row = try rows.next() {
            signals.append(PostSignal(
                postID: row[0], seenAt: RowDecoding.date(row[1]), watchedAt: RowDecoding.date(row[2]), label: row[3], explicit: row[4]
            ))
        }
        return signals
    }

    static func profile(_ db: Database, userID: Int64, now: Date) throws -> UserProfile {
        let affinities = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT kind, key, score, updated_at FROM user_affinities WHERE user_id = ?"), arguments: [userID]
        ).map { (kind: $0[0] as Int, key: $0[1] as String, score: $0[2] as Double, updatedAt: RowDecoding.date($0[3])) }
        return ForYouAssembly.profile(
            affinities: affinities, signals: try signals(db, userID: userID),
            signalCount: try signalCount(db, userID: userID, atMost: UserProfile.signalsForForYou),
            recentTags: try recentTags(db, userID: userID, now: now), now: now
        )
    }

    /// Tags of the posts served to the person lately (`UserProfile.recentTagExposure`), once per
    /// post carrying them: the newest `recentWindow` rows of `user_post_signals_by_seen`, never
    /// the whole history.
    static func recentTags(_ db: Database, userID: Int64, now: Date) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT t.name FROM (SELECT post_id FROM user_post_signals INDEXED BY user_post_signals_by_seen
                                WHERE user_id = ? AND seen_at >= ? ORDER BY seen_at DESC LIMIT ?) recent
            JOIN post_tag_ids x ON x.post_id = recent.post_id JOIN tags t ON t.id = x.tag_id
            """), arguments: [userID, RowDecoding.seconds(now.addingTimeInterval(-UserProfile.recentSeconds)), UserProfile.recentWindow])
    }

    /// Events other than impressions, counted up to `atMost` (an index walk of the person's
    /// events that stops there).
    static func signalCount(_ db: Database, userID: Int64, atMost: Int) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM (SELECT 1 FROM watch_events INDEXED BY watch_events_by_user_time
                                  WHERE user_id = ? AND type <> ? LIMIT ?)
            """), arguments: [userID, EventType.impression.code, max(0, atMost)]) ?? 0
    }
}

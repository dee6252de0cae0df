import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

/// Records one person's batch of watch events inside the caller's write transaction: checks
/// every post first (so a refused batch writes nothing), inserts the events (a resent id is
/// ignored by the primary key), then applies the new events' effects with one statement per
/// touched row rather than per event: a batch of 25 views of 25 posts with 3 tags each is 25
/// inserts, 25 signal upserts, ~100 affinity rows and 25 popularity rows.
enum EventIngest {
    /// What the checks and the effects need to know about a post.
    struct PostFacts {
        var status: String
        var libraryID: Int64
        /// `UploaderKey.name`: nil when the post has neither uploader nor username.
        var uploaderName: String?
        var tags: [String] = []

        /// Events may name what the person can play: a feed post or a live story.
        var acceptsEvents: Bool { status == PostStatus.ready.rawValue || status == PostStatus.story.rawValue }
    }

    static func record(_ db: Database, userID: Int64, events: [WatchEvent]) throws -> EventBatchOutcome {
        let posts = try postFacts(db, ids: Array(Set(events.map(\.postID))))
        let scope = try SQLiteStore.scope(db, userID: userID, requested: nil)
        for (index, event) in events.enumerated() {
            guard let post = posts[event.postID], post.acceptsEvents, scope.contains(post.libraryID) else {
                return .refused(index: index, reason: "post \(event.postID) does not exist")
            }
            if event.type == .hideUploader, post.uploaderName == nil {
                return .refused(index: index, reason: "post \(event.postID) has no uploader or username to hide")
            }
        }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var effects = EventEffects()
        var accepted = 0
        for event in events {
            try insert.execute(arguments: [
                userID, eventIDBytes(event.id), event.postID, event.type.code, event.at.timeIntervalSince1970,
                event.watchedMs, event.durationMs, event.loops, event.value,
            ])
            // Ignored: this person already sent this id, in an earlier batch or above.
            guard db.changesCount > 0, let post = posts[event.postID] else { continue }
            accepted += 1
            effects.add(event.interaction(userID: userID), post: post)
        }
        try effects.write(db, userID: userID)
        return .recorded(accepted: accepted, duplicates: events.count - accepted)
    }

    /// The client's UUID as the 16 bytes `watch_events.event_id` keeps.
    static func eventIDBytes(_ id: UUID) -> Data {
        withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    /// Status, library, uploader and tags of `ids` (absent ids are missing from the answer),
    /// in chunks under SQLite's bound-parameter limit.
    static func postFacts(_ db: Database, ids: [Int64]) throws -> [Int64: PostFacts] {
        var facts: [Int64: PostFacts] = [:]
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            let marks = SQLiteStore.placeholders(chunk.count)
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, status, library_id, uploader, username FROM posts WHERE id IN (\(marks))"),
                arguments: StatementArguments(chunk)
            )
            while let row = try rows.next() {
                facts[row[0]] = PostFacts(status: row[1], libraryID: row[2], uploaderName: UploaderKey.name(uploader: row[3], username: row[4]))
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

/// The effects of a batch's new events, gathered per row and written once each.
struct EventEffects {
    /// `user_affinities.kind`.
    enum AffinityKind: Int {
        case tag = 0
        case uploader = 1
    }

    struct AffinityKey: Hashable {
        var kind: AffinityKind
        var key: String
    }

    /// One `user_post_signals` row's change.
    struct SignalDelta {
        var seenAt: Double
        var watchedAt: Double?
        var impressions = 0
        var views = 0
        var longViews = 0
        var skips = 0
        var watchedMs = 0
        var label = 0.0
    }

    private(set) var signals: [Int64: SignalDelta] = [:]
    /// Weights in event order, so a decayed sum folds them as they happened.
    private(set) var affinities: [AffinityKey: [(weight: Double, at: Date)]] = [:]
    private(set) var popularity: [Int64: [(weight: Double, at: Date)]] = [:]
    private(set) var hiddenPosts: [Int64: Double] = [:]
    private(set) var hiddenUploaders: [String: (name: String, at: Double)] = [:]

    mutating func add(_ event: Interaction, post: EventIngest.PostFacts) {
        let at = event.at.timeIntervalSince1970
        let weight = SignalWeights.weight(of: event)
        var signal = signals[event.postID] ?? SignalDelta(seenAt: at)
        signal.seenAt = max(signal.seenAt, at)
        if event.type != .impression { signal.watchedAt = max(signal.watchedAt ?? at, at) }
        switch event.type {
        case .impression:
            signal.impressions += 1
        case .view:
            signal.views += 1
            signal.watchedMs += event.watchedMs ?? 0
            if let watched = event.watchedMs, let duration = event.durationMs,
               WatchLabel.isLongView(watchedMs: watched, durationMs: duration) {
                signal.longViews += 1
            }
        case .skip:
            signal.skips += 1
            signal.watchedMs += event.watchedMs ?? 0
        default:
            break
        }
        signal.label += weight
        signals[event.postID] = signal

        if weight != 0 {
            for tag in post.tags {
                affinities[AffinityKey(kind: .tag, key: tag), default: []].append((weight, event.at))
            }
            if let name = post.uploaderName {
                affinities[AffinityKey(kind: .uploader, key: UploaderKey.key(name)), default: []].append((weight, event.at))
            }
        }
        if weight > 0 { popularity[event.postID, default: []].append((weight, event.at)) }
        switch event.type {
        case .notInterested:
            hiddenPosts[event.postID] = max(hiddenPosts[event.postID] ?? at, at)
        case .hideUploader:
            if let name = post.uploaderName {
                let key = UploaderKey.key(name)
                hiddenUploaders[key] = (name, max(hiddenUploaders[key]?.at ?? at, at))
            }
        default:
            break
        }
    }

    func write(_ db: Database, userID: Int64) throws {
        try writeSignals(db, userID: userID)
        try writeAffinities(db, userID: userID)
        try writePopularity(db)
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
                userID, postID, delta.seenAt, delta.watchedAt, delta.impressions, delta.views, delta.longViews,
                delta.skips, delta.watchedMs, delta.label,
            ])
        }
    }

    private func writeAffinities(_ db: Database, userID: Int64) throws {
        let current = try db.cachedStatement(sql: "SELECT score, updated_at FROM user_affinities WHERE user_id = ? AND kind = ? AND key = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO user_affinities (user_id, kind, key, score, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, kind, key) DO UPDATE SET score = excluded.score, updated_at = excluded.updated_at
            """)
        for (key, additions) in affinities {
            var state: (score: Double, at: Date)?
            if let row = try Row.fetchOne(current, arguments: [userID, key.kind.rawValue, key.key]) {
                state = (row[0], Date(timeIntervalSince1970: row[1]))
            }
            for addition in additions {
                state = Affinity.updated(score: state?.score, at: state?.at, adding: addition.weight, now: addition.at)
            }
            guard let state else { continue }
            try upsert.execute(arguments: [userID, key.kind.rawValue, key.key, state.score, state.at.timeIntervalSince1970])
        }
    }

    private func writePopularity(_ db: Database) throws {
        let current = try db.cachedStatement(sql: "SELECT log_score FROM post_popularity WHERE post_id = ?")
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO post_popularity (post_id, log_score, events) VALUES (?, ?, ?)
            ON CONFLICT (post_id) DO UPDATE SET log_score = excluded.log_score, events = events + excluded.events
            """)
        for (postID, additions) in popularity {
            var key = try Double.fetchOne(current, arguments: [postID])
            for addition in additions {
                key = Popularity.adding(weight: addition.weight, at: addition.at, to: key)
            }
            guard let key else { continue }
            try upsert.execute(arguments: [postID, key, additions.count])
        }
    }
}

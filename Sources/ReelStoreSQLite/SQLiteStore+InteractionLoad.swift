import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

extension SQLiteStore {
    /// Writes `interactions` (of any people, about any posts) as `watch_events` with their
    /// aggregates — `user_post_signals`, `user_affinities`, `post_popularity` — folded by
    /// ReelRank's functions (`PostSignal.add`, `AffinityDecay`, `Popularity`) in one transaction:
    /// a bulk load (benchmarks load a million events; tests load a person's history) that ends
    /// in the state the event ingest would have left. Favorites also set the post's favorite
    /// state, as a client sending the event would through `PUT …/favorite`. Synchronous: a
    /// setup step. Posts without an uploader or username add no uploader affinity.
    public func loadInteractions(_ interactions: [Interaction]) throws {
        guard !interactions.isEmpty else { return }
        let ordered = interactions.sorted { ($0.userID, $0.at.timeIntervalSince1970, $0.postID) < ($1.userID, $1.at.timeIntervalSince1970, $1.postID) }
        do {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -262144")
                defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                try db.inTransaction(.immediate) {
                    let bulk = ordered.count >= 20_000
                    // As `insertSyntheticPosts`: a big batch drops the secondary indexes and
                    // rebuilds them once, instead of filling them at random positions row by row.
                    let rebuilt = bulk ? try Row.fetchAll(db, sql: """
                        SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
                        AND tbl_name IN ('watch_events', 'user_post_signals', 'user_affinities', 'post_popularity')
                        """).map { (name: $0["name"] as String, sql: $0["sql"] as String) } : []
                    for index in rebuilt { try db.execute(sql: "DROP INDEX \(index.name)") }
                    try Self.insertEvents(db, ordered)
                    try Self.foldSignals(db, ordered)
                    try Self.foldAffinities(db, ordered)
                    try Self.foldPopularity(db, ordered)
                    for index in rebuilt { try db.execute(sql: index.sql) }
                    return .commit
                }
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// `replaceNeighbors` for a setup step (synchronous, like `loadInteractions`).
    public func loadNeighbors(_ neighbors: [Int64: [Neighbor]]) throws {
        do {
            try writer.write { db in try Self.writeNeighbors(db, neighbors) }
        } catch {
            throw Self.storeError(error)
        }
    }

    private static func insertEvents(_ db: Database, _ interactions: [Interaction]) throws {
        var generator = SystemRandomNumberGenerator()
        let insert = try db.makeStatement(sql: """
            INSERT INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // In primary-key order (person, then a random event id), so the table fills in order.
        let rows = interactions.map { (interaction: $0, id: (UInt64.random(in: 0...UInt64.max, using: &generator), UInt64.random(in: 0...UInt64.max, using: &generator))) }
            .sorted { ($0.interaction.userID, $0.id.0, $0.id.1) < ($1.interaction.userID, $1.id.0, $1.id.1) }
        for (interaction, id) in rows {
            var bytes = Data(count: 16)
            bytes.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: id.0.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: id.1.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            insert.setUncheckedArguments([
                interaction.userID, bytes, interaction.postID, interaction.type.code, RowDecoding.seconds(interaction.at),
                interaction.watchedMs, interaction.durationMs, interaction.loops, interaction.value,
            ])
            try insert.execute()
        }
    }

    private static func foldSignals(_ db: Database, _ interactions: [Interaction]) throws {
        var signals: [Int64: [Int64: PostSignal]] = [:]
        var favorites: [(user: Int64, post: Int64, at: Double)] = []
        for interaction in interactions {
            signals[interaction.userID, default: [:]][interaction.postID, default: PostSignal(postID: interaction.postID, seenAt: interaction.at)]
                .add(interaction)
            if interaction.type == .favorite { favorites.append((interaction.userID, interaction.postID, RowDecoding.seconds(interaction.at))) }
        }
        // Merged into a row already there: instants keep the latest, counts and labels add.
        let upsert = try db.makeStatement(sql: """
            INSERT INTO user_post_signals (user_id, post_id, seen_at, watched_at, impressions, views, long_views, skips, watched_ms, label)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, post_id) DO UPDATE SET
                seen_at = max(seen_at, excluded.seen_at),
                watched_at = coalesce(max(watched_at, excluded.watched_at), watched_at, excluded.watched_at),
                impressions = impressions + excluded.impressions, views = views + excluded.views,
                long_views = long_views + excluded.long_views, skips = skips + excluded.skips,
                watched_ms = watched_ms + excluded.watched_ms, label = label + excluded.label
            """)
        for userID in signals.keys.sorted() {
            let posts = signals[userID] ?? [:]
            for postID in posts.keys.sorted() {
                let signal = posts[postID]!
                upsert.setUncheckedArguments([
                    userID, postID, RowDecoding.seconds(signal.seenAt), signal.watchedAt.map(RowDecoding.seconds),
                    signal.impressions, signal.views, signal.longViews, signal.skips, signal.watchedMs, signal.label,
                ])
                try upsert.execute()
            }
        }
        let favorite = try db.makeStatement(sql: """
            INSERT INTO post_user_state (user_id, post_id, favorited_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id, post_id) DO UPDATE SET favorited_at = coalesce(favorited_at, excluded.favorited_at)
            """)
        for row in favorites { try favorite.execute(arguments: [row.user, row.post, row.at]) }
    }

    /// Each person's tag and uploader scores, decayed and added event by event in time order
    /// (`AffinityDecay`), starting from the rows already stored.
    private static func foldAffinities(_ db: Database, _ interactions: [Interaction]) throws {
        let postIDs = Array(Set(interactions.map(\.postID)))
        var tags: [Int64: [String]] = [:]
        var uploaders: [Int64: String] = [:]
        for chunk in stride(from: 0, to: postIDs.count, by: 500).map({ postIDs[$0..<min($0 + 500, postIDs.count)] }) {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT p.id, p.uploader, p.username,
                       (SELECT group_concat(t.name, char(31)) FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id)
                FROM posts p WHERE p.id IN (\(placeholders(chunk.count)))
                """, arguments: StatementArguments(Array(chunk)))
            while let row = try rows.next() {
                let id: Int64 = row[0]
                tags[id] = (row[3] as String?)?.split(separator: "\u{1F}").map(String.init) ?? []
                uploaders[id] = UploaderKey.key(uploader: row[1], username: row[2])
            }
        }
        let read = try db.makeStatement(sql: "SELECT kind, key, score, updated_at FROM user_affinities WHERE user_id = ?")
        let write = try db.makeStatement(sql: "INSERT OR REPLACE INTO user_affinities (user_id, kind, key, score, updated_at) VALUES (?, ?, ?, ?, ?)")
        var start = interactions.startIndex
        while start < interactions.endIndex {
            let userID = interactions[start].userID
            let end = interactions[start...].firstIndex { $0.userID != userID } ?? interactions.endIndex
            var scores: [AffinityKey: (score: Double, updatedAt: Date)] = [:]
            let stored = try Row.fetchCursor(read, arguments: [userID])
            while let row = try stored.next() {
                scores[AffinityKey(kind: row[0], key: row[1])] = (row[2], RowDecoding.date(row[3]))
            }
            for interaction in interactions[start..<end] {
                let weight = SignalWeights.weight(of: interaction)
                guard weight != 0 else { continue }
                var keys = (tags[interaction.postID] ?? []).map { AffinityKey(kind: ForYouProfileQuery.tagKind, key: $0) }
                if let uploader = uploaders[interaction.postID] { keys.append(AffinityKey(kind: ForYouProfileQuery.uploaderKind, key: uploader)) }
                for key in keys {
                    let old = scores[key]
                    scores[key] = AffinityDecay.adding(weight: weight, at: interaction.at, to: old?.score, updatedAt: old?.updatedAt)
                }
            }
            for (key, value) in scores {
                try write.execute(arguments: [userID, key.kind, key.key, value.score, RowDecoding.seconds(value.updatedAt)])
            }
            start = end
        }
    }

    private struct AffinityKey: Hashable {
        var kind: Int
        var key: String
    }

    /// Positive interactions add to their post's decayed popularity (`Popularity.adding`).
    private static func foldPopularity(_ db: Database, _ interactions: [Interaction]) throws {
        var keys: [Int64: (key: Double?, events: Int)] = [:]
        let read = try db.makeStatement(sql: "SELECT log_score, events FROM post_popularity WHERE post_id = ?")
        for interaction in interactions.sorted(by: { $0.at < $1.at }) {
            let weight = SignalWeights.weight(of: interaction)
            guard weight > 0 else { continue }
            if keys[interaction.postID] == nil {
                let row = try Row.fetchOne(read, arguments: [interaction.postID])
                keys[interaction.postID] = (row.map { $0[0] as Double }, row.map { $0[1] as Int } ?? 0)
            }
            let old = keys[interaction.postID]!
            keys[interaction.postID] = (Popularity.adding(weight: weight, at: interaction.at, to: old.key), old.events + 1)
        }
        let write = try db.makeStatement(sql: "INSERT OR REPLACE INTO post_popularity (post_id, log_score, events) VALUES (?, ?, ?)")
        for postID in keys.keys.sorted() {
            guard let value = keys[postID], let key = value.key else { continue }
            try write.execute(arguments: [postID, key, value.events])
        }
    }
}

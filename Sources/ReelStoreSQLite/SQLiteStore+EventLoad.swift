import Foundation
import GRDB
import ReelModels
import ReelStore

extension SQLiteStore {
    /// Writes `events` (of any people, about any posts that exist) as `watch_events` with
    /// their aggregates — `user_post_signals`, `user_affinities`, `post_popularity`, hidden
    /// lists — in one transaction, through the event ingest's own `EventEffects`: a bulk load
    /// (benchmarks load a million events; tests load a person's history) that ends in the state
    /// the ingest would have left, without its per-batch checks. Favorites also set the post's
    /// favorite state, as a client sending the event would through `PUT …/favorite`.
    /// Synchronous: a setup step.
    public func loadEvents(_ events: [PersonEvent], aggregation: any EventAggregation) throws {
        guard !events.isEmpty else { return }
        let ordered = events.sorted {
            ($0.userID, $0.event.at.timeIntervalSince1970, $0.event.postID) < ($1.userID, $1.event.at.timeIntervalSince1970, $1.event.postID)
        }
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
                    try Self.applyEffects(db, ordered, aggregation: aggregation)
                    for index in rebuilt { try db.execute(sql: index.sql) }
                    return .commit
                }
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// `replaceNeighbors` for a setup step (synchronous, like `loadEvents`).
    public func loadNeighbors(_ neighbors: [Int64: [Neighbor]]) throws {
        do {
            try writer.write { db in try Self.writeNeighbors(db, neighbors) }
        } catch {
            throw Self.storeError(error)
        }
    }

    private static func insertEvents(_ db: Database, _ events: [PersonEvent]) throws {
        var generator = SystemRandomNumberGenerator()
        let insert = try db.makeStatement(sql: """
            INSERT INTO watch_events (user_id, event_id, post_id, type, at, watched_ms, duration_ms, loops, value)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // In primary-key order (person, then a random event id), so the table fills in order.
        let rows = events.map { (logged: $0, id: (UInt64.random(in: 0...UInt64.max, using: &generator), UInt64.random(in: 0...UInt64.max, using: &generator))) }
            .sorted { ($0.logged.userID, $0.id.0, $0.id.1) < ($1.logged.userID, $1.id.0, $1.id.1) }
        for (logged, id) in rows {
            let interaction = logged.event
            var bytes = Data(count: 16)
            bytes.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: id.0.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: id.1.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            insert.setUncheckedArguments([
                logged.userID, bytes, interaction.postID, interaction.type.code, RowDecoding.seconds(interaction.at),
                interaction.watchedMs, interaction.durationMs, interaction.loops, interaction.value,
            ])
            try insert.execute()
        }
    }

    /// Each person's events through `EventEffects` (as `EventIngest.record` applies a batch),
    /// in time order; then the favorites' state.
    private static func applyEffects(_ db: Database, _ events: [PersonEvent], aggregation: any EventAggregation) throws {
        let posts = try EventIngest.postFacts(db, ids: Array(Set(events.map(\.event.postID))))
        var start = events.startIndex
        while start < events.endIndex {
            let userID = events[start].userID
            let end = events[start...].firstIndex { $0.userID != userID } ?? events.endIndex
            let mine = try events[start..<end].map { logged in
                guard let post = posts[logged.event.postID] else { throw StoreError.notFound("post \(logged.event.postID)") }
                return (event: logged.event, post: post)
            }
            try aggregation.effects(of: mine).write(db, userID: userID, aggregation: aggregation)
            start = end
        }
        let favorite = try db.makeStatement(sql: """
            INSERT INTO post_user_state (user_id, post_id, favorited_at) VALUES (?, ?, ?)
            ON CONFLICT (user_id, post_id) DO UPDATE SET favorited_at = coalesce(favorited_at, excluded.favorited_at)
            """)
        for logged in events where logged.event.type == .favorite {
            try favorite.execute(arguments: [logged.userID, logged.event.postID, RowDecoding.seconds(logged.event.at)])
        }
    }
}

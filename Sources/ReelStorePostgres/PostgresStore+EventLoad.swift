import Foundation
import PostgresNIO
import ReelModels
import ReelRank
import ReelStore

extension PostgresStore {
    /// Writes `interactions` (of any people, about any posts that exist) as watch events with
    /// their aggregates, in one transaction, through the ingest's own path without its
    /// per-batch checks: the state `recordEvents` would have left (SQLite's `loadInteractions`;
    /// tests load a person's history with it). Each gets a fresh event id. Favorites also set
    /// the post's favorite state, as a client sending the event would through `PUT …/favorite`.
    public func loadInteractions(_ interactions: [Interaction]) async throws {
        guard !interactions.isEmpty else { return }
        let ordered = interactions.sorted {
            ($0.userID, $0.at.timeIntervalSince1970, $0.postID) < ($1.userID, $1.at.timeIntervalSince1970, $1.postID)
        }
        try await write { connection in
            let posts = try await PostgresEventIngest.postFacts(connection, ids: Array(Set(ordered.map(\.postID))), locking: false, logger: logger)
            if let missing = ordered.first(where: { posts[$0.postID] == nil }) { throw StoreError.notFound("post \(missing.postID)") }
            var start = ordered.startIndex
            while start < ordered.endIndex {
                let userID = ordered[start].userID
                let end = ordered[start...].firstIndex { $0.userID != userID } ?? ordered.endIndex
                let events = ordered[start..<end].map { interaction in
                    WatchEvent(
                        id: UUID(), postID: interaction.postID, type: interaction.type, at: interaction.at, watchedMs: interaction.watchedMs,
                        durationMs: interaction.durationMs, loops: interaction.loops, value: interaction.value
                    )
                }
                _ = try await PostgresEventIngest.store(connection, userID: userID, events: events, posts: posts, logger: logger)
                start = end
            }
            // The first favorite of each person and post (an upsert may touch a row once).
            var favorited = Set<[Int64]>()
            let favorites = ordered.filter { $0.type == .favorite && favorited.insert([$0.userID, $0.postID]).inserted }
            if !favorites.isEmpty {
                try await connection.query("""
                    INSERT INTO post_user_state AS s (user_id, post_id, favorited_at)
                    SELECT * FROM unnest(\(favorites.map { $0.userID })::bigint[], \(favorites.map { $0.postID })::bigint[],
                                         \(favorites.map { $0.at.timeIntervalSince1970 })::float8[])
                    ON CONFLICT (user_id, post_id) DO UPDATE SET favorited_at = coalesce(s.favorited_at, excluded.favorited_at)
                    """, logger: logger)
            }
        }
    }

    /// `replaceNeighbors` under SQLite's setup-step name.
    public func loadNeighbors(_ neighbors: [Int64: [Neighbor]]) async throws {
        try await replaceNeighbors(neighbors)
    }
}

import Foundation
import PostgresNIO
import ReelModels
import ReelStore

extension PostgresStore {
    /// Writes `events` (of any people, about any posts that exist) as watch events with their
    /// aggregates, in one transaction, through the ingest's own path without its per-batch
    /// checks: the state `recordEvents` would have left (SQLite's `loadEvents`; tests load a
    /// person's history with it). Favorites also set the post's favorite state, as a client
    /// sending the event would through `PUT …/favorite`.
    public func loadEvents(_ events: [PersonEvent], aggregation: any EventAggregation) async throws {
        guard !events.isEmpty else { return }
        let ordered = events.sorted {
            ($0.userID, $0.event.at.timeIntervalSince1970, $0.event.postID) < ($1.userID, $1.event.at.timeIntervalSince1970, $1.event.postID)
        }
        try await write { connection in
            let posts = try await PostgresEventIngest.postFacts(connection, ids: Array(Set(ordered.map(\.event.postID))), locking: false, logger: logger)
            if let missing = ordered.first(where: { posts[$0.event.postID] == nil }) { throw StoreError.notFound("post \(missing.event.postID)") }
            var start = ordered.startIndex
            while start < ordered.endIndex {
                let userID = ordered[start].userID
                let end = ordered[start...].firstIndex { $0.userID != userID } ?? ordered.endIndex
                _ = try await PostgresEventIngest.store(
                    connection, userID: userID, events: ordered[start..<end].map(\.event), posts: posts, aggregation: aggregation, logger: logger
                )
                start = end
            }
            // The first favorite of each person and post (an upsert may touch a row once).
            var favorited = Set<[Int64]>()
            let favorites = ordered.filter { $0.event.type == .favorite && favorited.insert([$0.userID, $0.event.postID]).inserted }
            if !favorites.isEmpty {
                try await connection.query("""
                    INSERT INTO post_user_state AS s (user_id, post_id, favorited_at)
                    SELECT * FROM unnest(\(favorites.map { $0.userID })::bigint[], \(favorites.map { $0.event.postID })::bigint[],
                                         \(favorites.map { $0.event.at.timeIntervalSince1970 })::float8[])
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

import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

/// The recurring jobs' side of the event log: expiry (`events.expire`) and the neighbour
/// table's rebuild (`recs.neighbors`).
extension SQLiteStore {
    /// Rows deleted per transaction by `expireEvents`: a large backlog (the first run after the
    /// retention was shortened) never holds the write lock long enough to stall ingest.
    static let expiryChunk = 5_000

    public func expireEvents(before cutoff: Date) async throws -> Int {
        let seconds = cutoff.timeIntervalSince1970
        var total = 0
        while true {
            let deleted = try await write { db in
                try db.execute(sql: """
                    DELETE FROM watch_events WHERE (user_id, event_id) IN
                        (SELECT user_id, event_id FROM watch_events WHERE at < ? LIMIT ?)
                    """, arguments: [seconds, Self.expiryChunk])
                return db.changesCount
            }
            total += deleted
            if deleted < Self.expiryChunk { return total }
        }
    }

    /// One pass over the events by person and time (`watch_events_by_user_time`), reading only
    /// the event types that can be positive and keeping, per person, plain arrays of post ids:
    /// a million events cost a few megabytes, never a million row objects.
    public func positiveHistories(maxPerUser: Int) async throws -> [[Int64]] {
        guard maxPerUser > 0 else { throw StoreError.invalid("a history keeps at least one post, not \(maxPerUser)") }
        let positiveTypes = Self.positiveTypeCodes
        return try await read { db in
            var histories: [[Int64]] = []
            var currentUser: Int64?
            var posts: [Int64] = []
            func finish() {
                let recent = Self.mostRecentDistinct(posts, limit: maxPerUser)
                if recent.count > 1 { histories.append(recent) }
                posts.removeAll(keepingCapacity: true)
            }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT user_id, post_id, type, watched_ms, duration_ms, value FROM watch_events INDEXED BY watch_events_by_user_time
                WHERE type IN (\(positiveTypes.map(String.init).joined(separator: ", ")))
                ORDER BY user_id, at
                """)
            while let row = try rows.next() {
                let userID: Int64 = row[0]
                if userID != currentUser {
                    finish()
                    currentUser = userID
                }
                guard let type = EventType(code: row[2]) else { continue }
                let postID: Int64 = row[1]
                let interaction = Interaction(
                    userID: userID, postID: postID, type: type, at: .distantPast, watchedMs: row[3], durationMs: row[4], value: row[5]
                )
                if SignalWeights.weight(of: interaction) > 0 { posts.append(postID) }
            }
            finish()
            return histories
        }
    }

    public func replaceNeighbors(_ neighbors: [Int64: [Neighbor]]) async throws {
        try await write { db in try Self.writeNeighbors(db, neighbors) }
    }

    /// `replaceNeighbors` inside the caller's transaction (bulk loads call it synchronously).
    static func writeNeighbors(_ db: Database, _ neighbors: [Int64: [Neighbor]]) throws {
        try db.execute(sql: "DELETE FROM post_neighbors")
        // A post deleted since the events were read would break the foreign keys.
        let existing = try Set(Int64.fetchAll(db, sql: "SELECT id FROM posts"))
        let insert = try db.cachedStatement(sql: "INSERT INTO post_neighbors (post_id, neighbor_id, score) VALUES (?, ?, ?)")
        for (postID, list) in neighbors where existing.contains(postID) {
            for neighbor in list where neighbor.postID != postID && existing.contains(neighbor.postID) {
                try insert.execute(arguments: [postID, neighbor.postID, neighbor.score])
            }
        }
    }

    /// Codes of the event types whose weight is above zero for some values (a long view, a
    /// rating of 5), probed through `SignalWeights` itself so the filter follows its weights.
    static let positiveTypeCodes: [Int] = EventType.allCases.filter { type in
        [(18_000, 18_000, 5), (2_000, 60_000, 4), (0, 1, 0)].contains { watched, duration, value in
            let probe = Interaction(userID: 0, postID: 0, type: type, at: .distantPast, watchedMs: watched, durationMs: duration, value: value)
            return SignalWeights.weight(of: probe) > 0
        }
    }.map(\.code)

    /// The last `limit` distinct posts of an oldest-first list, still oldest first (a post's
    /// place is its latest occurrence).
    static func mostRecentDistinct(_ posts: [Int64], limit: Int) -> [Int64] {
        var seen = Set<Int64>()
        var recent: [Int64] = []
        for post in posts.reversed() where seen.insert(post).inserted {
            recent.append(post)
            if recent.count == limit { break }
        }
        return recent.reversed()
    }
}

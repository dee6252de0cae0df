import Foundation
import ReelModels

/// The rules of the event log's upkeep (`events.expire`, `recs.neighbors`) that do not depend
/// on the database, so every store expires, reads and rewrites the same rows.
public enum EventUpkeepRules {
    /// Rows deleted per transaction by `expireEvents`: a large backlog (the first run after the
    /// retention was shortened) never holds a write lock long enough to stall ingest.
    public static let expiryChunk = 5_000

    /// Runs `deleteChunk` (one transaction deleting at most `expiryChunk` expired events,
    /// answering how many) until a chunk comes back short; answers the total.
    public static func expireInChunks(_ deleteChunk: () async throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await deleteChunk()
            total += deleted
            if deleted < expiryChunk { return total }
        }
    }

    /// The last `limit` distinct posts of an oldest-first list, still oldest first (a post's
    /// place is its latest occurrence).
    public static func mostRecentDistinct(_ posts: [Int64], limit: Int) -> [Int64] {
        var seen = Set<Int64>()
        var recent: [Int64] = []
        for post in posts.reversed() where seen.insert(post).inserted {
            recent.append(post)
            if recent.count == limit { break }
        }
        return recent.reversed()
    }

    /// The neighbour table's rows in primary-key order: no post its own neighbour, no post that
    /// no longer exists (deleted since the events were read), one row per pair (the best score).
    public static func neighborRows(
        _ neighbors: [Int64: [Neighbor]], existing: Set<Int64>
    ) -> [(postID: Int64, neighborID: Int64, score: Double)] {
        var rows: [(postID: Int64, neighborID: Int64, score: Double)] = []
        for postID in neighbors.keys.sorted() where existing.contains(postID) {
            var scores: [Int64: Double] = [:]
            for neighbor in neighbors[postID] ?? [] where neighbor.postID != postID && existing.contains(neighbor.postID) {
                scores[neighbor.postID] = max(scores[neighbor.postID] ?? neighbor.score, neighbor.score)
            }
            for (neighborID, score) in scores.sorted(by: { $0.key < $1.key }) {
                rows.append((postID, neighborID, score))
            }
        }
        return rows
    }
}

/// Gathers everyone's positive histories (what co-visitation learns from) from events read in
/// (person, time) order, keeping per person plain arrays of post ids: a million events cost a
/// few megabytes, never a million row objects.
public struct PositiveHistoryCollector: Sendable {
    public let maxPerUser: Int
    /// Decides which events count (For You's weights).
    public let aggregation: any EventAggregation
    public private(set) var histories: [[Int64]] = []
    private var currentUser: Int64?
    private var posts: [Int64] = []

    public init(maxPerUser: Int, aggregation: any EventAggregation) {
        self.maxPerUser = maxPerUser
        self.aggregation = aggregation
    }

    /// One event, in (person, time) order.
    public mutating func add(userID: Int64, postID: Int64, typeCode: Int, watchedMs: Int?, durationMs: Int?, value: Int?) {
        if userID != currentUser {
            flush()
            currentUser = userID
        }
        guard let type = EventType(code: typeCode) else { return }
        let event = WatchEvent(id: Self.noID, postID: postID, type: type, at: .distantPast, watchedMs: watchedMs, durationMs: durationMs, value: value)
        if aggregation.isPositive(event) { posts.append(postID) }
    }

    /// The log's rows carry no event id worth reading here (and making one per row would cost).
    private static let noID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// Every history of two posts or more (one post co-visits nothing).
    public mutating func finish() -> [[Int64]] {
        flush()
        return histories
    }

    private mutating func flush() {
        let recent = EventUpkeepRules.mostRecentDistinct(posts, limit: maxPerUser)
        if recent.count > 1 { histories.append(recent) }
        posts.removeAll(keepingCapacity: true)
    }
}

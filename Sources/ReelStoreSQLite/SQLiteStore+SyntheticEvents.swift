import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

extension SQLiteStore {
    /// Adds `users` synthetic members and about `events` watch events among them over the
    /// library's ready posts, with their aggregates (`loadInteractions`) and the neighbour table
    /// (`CoVisitation` over each person's positive interactions), for `make bench`.
    ///
    /// People have tastes: each likes three tags (common tags more often, as the library's tag
    /// use is long-tailed); most of their events are about posts of those tags (long views,
    /// likes, favorites, shares) and the rest about random posts (impressions, skips, short
    /// views), spread over the last 30 days. Returns the new users' ids.
    public func insertSyntheticEvents(users: Int, events: Int, now: Date, neighborHistory: Int = 20) throws -> [Int64] {
        guard users > 0 else { return [] }
        var generator = SystemRandomNumberGenerator()
        let (tagPosts, allPosts) = try syntheticCatalogue()
        guard !allPosts.isEmpty else { return [] }
        let userIDs = try insertSyntheticUsers(count: users, now: now)
        let tags = tagPosts.keys.sorted()
        var interactions: [Interaction] = []
        interactions.reserveCapacity(events)
        var histories: [[Int64]] = []
        for (index, userID) in userIDs.enumerated() {
            // Spread `events` over the users, each a little more or less active.
            let share = events / users + (index < events % users ? 1 : 0)
            let count = max(0, Int(Double(share) * Double.random(in: 0.5...1.5, using: &generator)))
            let tastes = (0..<3).map { _ -> [Int64] in
                let draw = Double.random(in: 0..<1, using: &generator)
                return tagPosts[tags[Int(draw * draw * Double(tags.count))]] ?? []
            }.filter { !$0.isEmpty }
            var mine: [Interaction] = []
            for _ in 0..<count {
                let at = now.addingTimeInterval(-Double.random(in: 60...(30 * 86_400), using: &generator))
                if let taste = tastes.randomElement(using: &generator), Double.random(in: 0..<1, using: &generator) < 0.7 {
                    // Within a tag, some posts are everyone's favourites: a skewed draw.
                    let draw = Double.random(in: 0..<1, using: &generator)
                    mine.append(Self.tasteInteraction(userID: userID, postID: taste[Int(draw * draw * Double(taste.count))], at: at, using: &generator))
                } else {
                    mine.append(Self.randomInteraction(userID: userID, postID: allPosts.randomElement(using: &generator)!, at: at, using: &generator))
                }
            }
            mine.sort { $0.at < $1.at }
            histories.append(Array(mine.filter { SignalWeights.weight(of: $0) > 0 }.map(\.postID).suffix(neighborHistory)))
            interactions += mine
        }
        try loadInteractions(interactions)
        try loadNeighbors(CoVisitation().neighbors(histories: histories))
        return userIDs
    }

    private static func tasteInteraction<G: RandomNumberGenerator>(userID: Int64, postID: Int64, at: Date, using generator: inout G) -> Interaction {
        switch Double.random(in: 0..<1, using: &generator) {
        case ..<0.30: Interaction(userID: userID, postID: postID, type: .impression, at: at)
        case ..<0.75: Interaction(userID: userID, postID: postID, type: .view, at: at, watchedMs: 12_500, durationMs: 12_500, loops: 1)
        case ..<0.83: Interaction(userID: userID, postID: postID, type: .skip, at: at, watchedMs: 900)
        case ..<0.90: Interaction(userID: userID, postID: postID, type: .like, at: at)
        case ..<0.95: Interaction(userID: userID, postID: postID, type: .favorite, at: at)
        case ..<0.98: Interaction(userID: userID, postID: postID, type: .share, at: at)
        default: Interaction(userID: userID, postID: postID, type: .rating, at: at, value: 5)
        }
    }

    private static func randomInteraction<G: RandomNumberGenerator>(userID: Int64, postID: Int64, at: Date, using generator: inout G) -> Interaction {
        switch Double.random(in: 0..<1, using: &generator) {
        case ..<0.40: Interaction(userID: userID, postID: postID, type: .impression, at: at)
        case ..<0.80: Interaction(userID: userID, postID: postID, type: .skip, at: at, watchedMs: 700)
        default: Interaction(userID: userID, postID: postID, type: .view, at: at, watchedMs: 4_000, durationMs: 12_500)
        }
    }

    /// Ready posts by tag, and all of them.
    private func syntheticCatalogue() throws -> (byTag: [Int64: [Int64]], all: [Int64]) {
        do {
            return try writer.read { db in
                var byTag: [Int64: [Int64]] = [:]
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT x.tag_id, x.post_id FROM post_tag_ids x JOIN posts p ON p.id = x.post_id
                    WHERE p.status = 'ready' ORDER BY x.tag_id, x.post_id
                    """)
                while let row = try rows.next() { byTag[row[0], default: []].append(row[1]) }
                return (byTag, try Int64.fetchAll(db, sql: "SELECT id FROM posts WHERE status = 'ready' ORDER BY id"))
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    private func insertSyntheticUsers(count: Int, now: Date) throws -> [Int64] {
        do {
            return try writer.write { db in
                let run = UInt32.random(in: 0...UInt32.max)
                let insert = try db.makeStatement(sql: """
                    INSERT INTO users (name, name_key, role, password_hash, created_at) VALUES (?, ?, 'member', '-', ?)
                    """)
                var ids: [Int64] = []
                for index in 0..<count {
                    let name = "bench-\(run)-\(index)"
                    try insert.execute(arguments: [name, name, RowDecoding.seconds(now)])
                    ids.append(db.lastInsertedRowID)
                }
                return ids
            }
        } catch {
            throw Self.storeError(error)
        }
    }
}

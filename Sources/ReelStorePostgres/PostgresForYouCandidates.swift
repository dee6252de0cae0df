import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelRank
import ReelStore

/// For You's candidate stage on PostgreSQL, source for source the walks of SQLite's
/// `ForYouCandidates`: each reads a bounded slice of one index (`ForYouSourceSizes.scanLimit`
/// rows) and keeps only posts the person may be served — ready, kept by the filter, not hidden,
/// not seen (one primary-key probe of `user_post_signals` per post) — in the walk's own order,
/// so a page costs the same at any library size and both stores pick the same posts.
struct PostgresForYouCandidates {
    let connection: PostgresConnection
    let userID: Int64
    let filter: PostgresFeedFilter
    let sizes: ForYouSourceSizes
    /// Random starts for this page, from the cursor's seed and page number.
    var generator: SeededGenerator
    let logger: Logger

    private static let scanLimit = ForYouSourceSizes.scanLimit

    /// The anchors' neighbours (the best `neighborsPerAnchor` of each, in one query), scored by
    /// `ForYouAssembly`, and which of the best of them may be served.
    func neighbors(of profile: UserProfile, in assembly: ForYouAssembly) async throws -> (scores: [Int64: NeighborScore], servable: [Int64]) {
        let anchors = profile.anchors.map(\.postID)
        var lists: [Int64: [Neighbor]] = [:]
        if !anchors.isEmpty {
            let rows = try await connection.query("""
                SELECT a.post_id, n.neighbor_id, n.score
                FROM unnest(\(anchors)::bigint[]) AS a(post_id)
                CROSS JOIN LATERAL (SELECT neighbor_id, score FROM post_neighbors WHERE post_id = a.post_id
                                    ORDER BY score DESC, neighbor_id LIMIT \(ForYouSourceSizes.neighborsPerAnchor)) n
                ORDER BY a.post_id, n.score DESC, n.neighbor_id
                """, logger: logger).collect()
            for row in rows {
                let (anchor, neighbor, score) = try row.decode((Int64, Int64, Double).self)
                lists[anchor, default: []].append(Neighbor(postID: neighbor, score: score))
            }
        }
        let (scores, best) = assembly.neighborScores(profile: profile, lists: lists)
        guard !best.isEmpty else { return (scores, []) }
        var query = PostgresFeedSQL()
        query.sql = "SELECT p.id FROM posts p"
        let among = " AND p.id = ANY(\(query.bind(best)))"
        let kept = try await servable(query, order: "p.id", limit: best.count, extra: among)
        return (scores, kept)
    }

    /// Ids from `query` (SQL selecting `p.id` from a FROM clause that names the post `p`, with
    /// its bindings) that may be served, with `extra` conditions on `p`, in `order`, at most `limit`.
    private func servable(_ query: PostgresFeedSQL, order: String, limit: Int, extra: String = "") async throws -> [Int64] {
        var query = query
        query.appendConditions(userID: userID, filter: filter)
        query.sql += extra
        query.sql += " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = \(query.bind(userID)) AND seen.post_id = p.id)"
        query.sql += " ORDER BY \(order) LIMIT \(query.bind(limit))"
        return try await connection.query(query.query, logger: logger).collect().map { try $0.decode(Int64.self) }
    }

    /// Posts of the person's strongest tags, from a random point of each tag's posts
    /// downwards (then from the top when that is short). Returns the tag names as the
    /// vocabulary spells them, keyed by the profile's spelling.
    mutating func tagged(_ tags: [String], maxPostID: Int64) async throws -> (posts: [Int64: String], spelling: [String: String]) {
        var posts: [Int64: String] = [:]
        var spelling: [String: String] = [:]
        for tag in tags.prefix(ForYouSourceSizes.tagsUsed) {
            let found = try await connection.query(
                "SELECT id, name FROM tags WHERE name_key = \(PostgresVocabulary.key(tag))", logger: logger
            ).collect()
            guard let row = found.first else { continue }
            let (tagID, name) = try row.decode((Int64, String).self)
            spelling[tag] = name
            let start = ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)
            for bounded in [true, false] {
                var query = PostgresFeedSQL()
                let bound = bounded ? " AND post_id < \(query.bind(start))" : ""
                query.sql = """
                    SELECT p.id FROM (SELECT post_id FROM post_tag_ids WHERE tag_id = \(query.bind(tagID))\(bound)
                                      ORDER BY post_id DESC LIMIT \(Self.scanLimit)) m
                    JOIN posts p ON p.id = m.post_id
                    """
                let ids = try await servable(query, order: "p.id DESC", limit: sizes.perTag)
                for id in ids where posts[id] == nil { posts[id] = tag }
                if ids.count >= sizes.perTag { break }
            }
        }
        return (posts, spelling)
    }

    /// Posts of the person's strongest uploaders (by `posts.uploader_key`), from a random point.
    mutating func uploaded(_ uploaders: [String], maxPostID: Int64) async throws -> [Int64: String] {
        var posts: [Int64: String] = [:]
        for key in uploaders.prefix(ForYouSourceSizes.uploadersUsed) {
            let start = ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)
            for bounded in [true, false] {
                var query = PostgresFeedSQL()
                let bound = bounded ? " AND id < \(query.bind(start))" : ""
                query.sql = """
                    SELECT p.id FROM (SELECT id FROM posts WHERE uploader_key = \(query.bind(key)) AND status = 'ready'\(bound)
                                      ORDER BY id DESC LIMIT \(Self.scanLimit)) m
                    JOIN posts p ON p.id = m.id
                    """
                let ids = try await servable(query, order: "p.id DESC", limit: sizes.perUploader)
                for id in ids where posts[id] == nil { posts[id] = key }
                if ids.count >= sizes.perUploader { break }
            }
        }
        return posts
    }

    /// The newest posts that may be served.
    func fresh() async throws -> [Int64] {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT id FROM posts WHERE status = 'ready' ORDER BY date_added DESC, id DESC LIMIT \(Self.scanLimit)) m
            JOIN posts p ON p.id = m.id
            """
        return try await servable(query, order: "p.date_added DESC, p.id DESC", limit: sizes.fresh)
    }

    /// The most popular posts now (time-decayed) that may be served.
    func popular() async throws -> [Int64] {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT post_id, log_score FROM post_popularity ORDER BY log_score DESC, post_id DESC LIMIT \(Self.scanLimit)) m
            JOIN posts p ON p.id = m.post_id
            """
        return try await servable(query, order: "m.log_score DESC, m.post_id DESC", limit: sizes.want)
    }

    /// Unseen posts in a random order: the shuffled feed's walk of a shuffle index from a
    /// random point (phase 0, then phase 1), skipping seen posts. Not bounded: fewer than
    /// `count` means nothing else is unseen.
    func explore(order: FeedShuffle.EpochOrder, count: Int) async throws -> [Int64] {
        let key = "p.shuffle\(order.column)"
        let direction = order.descending ? "DESC" : "ASC"
        var found: [Int64] = []
        for phase in 0...1 where found.count < count {
            var query = PostgresFeedSQL()
            query.sql = "SELECT p.id FROM posts p"
            let upperPart = (phase == 0) != order.descending
            let range = upperPart ? " AND \(key) >= \(query.bind(order.start))" : " AND \(key) < \(query.bind(order.start))"
            found += try await servable(query, order: "\(key) \(direction), p.id \(direction)", limit: count - found.count, extra: range)
        }
        return found
    }

    /// Seen posts that may be served again, least recently seen first: what For You serves once
    /// everything the person could be shown has been.
    func leastRecentlySeen(count: Int, excluding: Set<Int64>) async throws -> [Int64] {
        var query = PostgresFeedSQL()
        query.sql = "SELECT p.id FROM user_post_signals u JOIN posts p ON p.id = u.post_id"
        query.appendConditions(userID: userID, filter: filter)
        query.sql += " AND u.user_id = \(query.bind(userID)) ORDER BY u.seen_at, u.post_id LIMIT \(query.bind(count + excluding.count))"
        let found = try await connection.query(query.query, logger: logger).collect().map { try $0.decode(Int64.self) }
        return Array(found.filter { !excluding.contains($0) }.prefix(count))
    }

    /// What the scorer needs about each post: uploader key, tags, age, length and popularity.
    func describe(_ postIDs: [Int64]) async throws -> [Int64: Candidate] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try await connection.query("""
            SELECT p.id, p.uploader, p.username, p.date_added, p.duration, pp.log_score,
                   ARRAY(SELECT t.name FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id ORDER BY x.seq)
            FROM posts p LEFT JOIN post_popularity pp ON pp.post_id = p.id
            WHERE p.id = ANY(\(postIDs))
            """, logger: logger).collect()
        var candidates: [Int64: Candidate] = [:]
        var keys: [Int64: Double] = [:]
        for row in rows {
            let (id, uploader, username, addedAt, duration, logScore, tags) =
                try row.decode((Int64, String?, String?, Double, Double?, Double?, [String]).self)
            candidates[id] = Candidate(
                postID: id, uploader: UploaderKey.key(uploader: uploader, username: username), tags: tags,
                addedAt: Date(timeIntervalSince1970: addedAt), durationSeconds: duration, sources: []
            )
            keys[id] = logScore
        }
        ForYouAssembly.scalePopularity(&candidates, logScores: keys)
        return candidates
    }
}

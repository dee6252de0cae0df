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
            // One row per anchor with its list as two arrays: a page reads up to 50 × 30 pairs,
            // and a row each cost more to decode than the query took.
            let rows = try await connection.query("""
                SELECT a.post_id, n.ids, n.scores
                FROM unnest(\(anchors)::bigint[]) AS a(post_id)
                CROSS JOIN LATERAL (SELECT array_agg(neighbor_id ORDER BY score DESC, neighbor_id) AS ids,
                                           array_agg(score ORDER BY score DESC, neighbor_id) AS scores
                                    FROM (SELECT neighbor_id, score FROM post_neighbors WHERE post_id = a.post_id
                                          ORDER BY score DESC, neighbor_id LIMIT \(ForYouSourceSizes.neighborsPerAnchor)) best) n
                WHERE n.ids IS NOT NULL
                """, logger: logger).collect()
            for row in rows {
                let (anchor, ids, scores) = try row.decode((Int64, [Int64], [Double]).self)
                lists[anchor] = zip(ids, scores).map { Neighbor(postID: $0, score: $1) }
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
        try await connection.query(servableQuery(query, order: order, limit: limit, extra: extra), logger: logger)
            .collect().map { try $0.decode(Int64.self) }
    }

    /// The statement `servable` runs.
    private func servableQuery(_ query: PostgresFeedSQL, order: String, limit: Int, extra: String = "") -> PostgresQuery {
        var query = query
        query.appendConditions(userID: userID, filter: filter)
        query.sql += extra
        query.sql += " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = \(query.bind(userID)) AND seen.post_id = p.id)"
        query.sql += " ORDER BY \(order) LIMIT \(query.bind(limit))"
        return query.query
    }

    /// Posts of the person's strongest tags, from a random point of each tag's posts downwards
    /// (then from the top for a tag that came up short). Returns the tag names as the
    /// vocabulary spells them, keyed by the profile's spelling. Three queries at most, whatever
    /// the number of tags: the lookup, every tag's first walk, the short ones' second.
    mutating func tagged(_ tags: [String], maxPostID: Int64) async throws -> (posts: [Int64: String], spelling: [String: String]) {
        let used = Array(tags.prefix(ForYouSourceSizes.tagsUsed))
        guard !used.isEmpty else { return ([:], [:]) }
        var known: [String: (id: Int64, name: String)] = [:]
        for row in try await connection.query(
            "SELECT name_key, id, name FROM tags WHERE name_key = ANY(\(used.map(PostgresVocabulary.key)))", logger: logger
        ).collect() {
            let (key, id, name) = try row.decode((String, Int64, String).self)
            known[key] = (id, name)
        }
        var spelling: [String: String] = [:]
        var walked: [(tag: String, id: Int64, start: Int64)] = []
        for tag in used {
            guard let entry = known[PostgresVocabulary.key(tag)] else { continue }
            spelling[tag] = entry.name
            walked.append((tag, entry.id, ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)))
        }
        let posts = try await walkEach(walked.map { ($0.tag, $0.id, $0.start) }, limit: sizes.perTag) { bounded in
            "SELECT post_id AS id FROM post_tag_ids WHERE tag_id = w.key\(bounded ? " AND post_id < w.start" : "") ORDER BY post_id DESC"
        }
        return (posts, spelling)
    }

    /// Posts of the person's strongest uploaders (by `posts.uploader_key`), from a random point.
    mutating func uploaded(_ uploaders: [String], maxPostID: Int64) async throws -> [Int64: String] {
        var walked: [(name: String, key: String, start: Int64)] = []
        for key in uploaders.prefix(ForYouSourceSizes.uploadersUsed) {
            walked.append((key, key, ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)))
        }
        return try await walkEach(walked, limit: sizes.perUploader) { bounded in
            "SELECT id FROM posts WHERE uploader_key = w.key AND status = 'ready'\(bounded ? " AND id < w.start" : "") ORDER BY id DESC"
        }
    }

    /// SQLite's walk per entry, for all entries at once: from each entry's start downwards
    /// (`walk(true)`, a subquery over `w.key` and `w.start` naming its posts `id`), the first
    /// `scanLimit` rows, keeping the `limit` newest servable ones; then, for the entries that
    /// came up short, the same from the top (`walk(false)`). Answers the posts by the name of
    /// the first entry that found them.
    private func walkEach<Key: PostgresArrayEncodable & PostgresNonThrowingEncodable>(
        _ entries: [(name: String, key: Key, start: Int64)], limit: Int, walk: (_ bounded: Bool) -> String
    ) async throws -> [Int64: String] {
        guard !entries.isEmpty else { return [:] }
        let first = try await walks(keys: entries.map(\.key), starts: entries.map(\.start), walk: walk(true), limit: limit)
        let short = entries.indices.filter { first[$0].count < limit }
        let second = short.isEmpty ? [] : try await walks(
            keys: short.map { entries[$0].key }, starts: short.map { entries[$0].start }, walk: walk(false), limit: limit
        )
        var posts: [Int64: String] = [:]
        for (index, entry) in entries.enumerated() {
            for id in first[index] where posts[id] == nil { posts[id] = entry.name }
            if let retry = short.firstIndex(of: index) {
                for id in second[retry] where posts[id] == nil { posts[id] = entry.name }
            }
        }
        return posts
    }

    /// One query: per (key, start), the servable posts of `walk`'s first `scanLimit` rows,
    /// newest first, at most `limit`; in the order of `keys`.
    private func walks<Key: PostgresArrayEncodable & PostgresNonThrowingEncodable>(
        keys: [Key], starts: [Int64], walk: String, limit: Int
    ) async throws -> [[Int64]] {
        var query = PostgresFeedSQL()
        let keyList = query.bind(keys)
        let startList = query.bind(starts)
        query.sql = """
            SELECT w.ord, x.id FROM unnest(\(keyList), \(startList)::bigint[]) WITH ORDINALITY AS w(key, start, ord)
            CROSS JOIN LATERAL (SELECT p.id FROM (\(walk) LIMIT \(Self.scanLimit)) m JOIN posts p ON p.id = m.id
            """
        query.appendConditions(userID: userID, filter: filter)
        query.sql += " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = \(query.bind(userID)) AND seen.post_id = p.id)"
        query.sql += " ORDER BY p.id DESC LIMIT \(query.bind(limit))) x ORDER BY w.ord, x.id DESC"
        var found = Array(repeating: [Int64](), count: keys.count)
        for row in try await connection.query(query.query, logger: logger).collect() {
            let (ordinal, id) = try row.decode((Int64, Int64).self)
            found[Int(ordinal) - 1].append(id)
        }
        return found
    }

    /// The newest posts that may be served.
    func fresh() async throws -> [Int64] {
        try await connection.query(freshQuery, logger: logger).collect().map { try $0.decode(Int64.self) }
    }

    /// `fresh`'s statement (the plan tests read it).
    var freshQuery: PostgresQuery {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT id, date_added FROM posts WHERE status = 'ready' ORDER BY date_added DESC, id DESC LIMIT \(Self.scanLimit)) m
            JOIN posts p ON p.id = m.id
            """
        // Ordered by the walk's own columns, so the join keeps its order and stops at the
        // limit (ordered by p's, PostgreSQL hashed the whole posts table: 3 ms at 20,000 posts).
        return servableQuery(query, order: "m.date_added DESC, m.id DESC", limit: sizes.fresh)
    }

    /// The most popular posts now (time-decayed) that may be served.
    func popular() async throws -> [Int64] {
        try await connection.query(popularQuery, logger: logger).collect().map { try $0.decode(Int64.self) }
    }

    /// `popular`'s statement (the plan tests read it).
    var popularQuery: PostgresQuery {
        var query = PostgresFeedSQL()
        query.sql = """
            SELECT p.id FROM (SELECT post_id, log_score FROM post_popularity ORDER BY log_score DESC, post_id DESC LIMIT \(Self.scanLimit)) m
            JOIN posts p ON p.id = m.post_id
            """
        return servableQuery(query, order: "m.log_score DESC, m.post_id DESC", limit: sizes.want)
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

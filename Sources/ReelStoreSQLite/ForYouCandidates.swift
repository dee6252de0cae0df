import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

/// For You's candidate stage in SQL. Every source is an index walk that keeps only posts the
/// person may be served — ready, kept by the filter, not hidden, and not seen (one primary-key
/// lookup in `user_post_signals` per post walked, never the person's whole history) — and
/// stops after a bounded number of rows, so a page costs the same at any library size.
struct ForYouCandidates {
    let db: Database
    let userID: Int64
    let filter: ResolvedFeedFilter
    /// How many of each source to gather.
    let sizes: ForYouSourceSizes
    /// Random starts for this page, from the cursor's seed and page number.
    var generator: SeededGenerator

    private static let scanLimit = ForYouSourceSizes.scanLimit

    /// ` AND …` after `FeedQuery.conditions`: the person has no signal row for the post.
    private var unseen: String { " AND NOT EXISTS (SELECT 1 FROM user_post_signals seen WHERE seen.user_id = ? AND seen.post_id = p.id)" }

    /// Runs `sql` (which selects one id) with the serving conditions spliced in where it says
    /// `{conditions}` and `limit` as its last argument.
    private func ids(_ sql: String, _ before: StatementArguments, limit: Int) throws -> [Int64] {
        let (conditions, arguments) = FeedQuery.conditions(userID: userID, filter: filter)
        let full = sql.replacingOccurrences(of: "{conditions}", with: conditions + unseen)
        return try Int64.fetchAll(db.cachedStatement(sql: full), arguments: before + arguments + [userID, limit])
    }

    /// The anchors' neighbours scored (`ForYouAssembly.neighborScores`), and which of the best
    /// of them may be served.
    func neighbors(of profile: UserProfile, in assembly: ForYouAssembly) throws -> (scores: [Int64: NeighborScore], servable: [Int64]) {
        var lists: [Int64: [Neighbor]] = [:]
        let statement = try db.cachedStatement(sql: "SELECT neighbor_id, score FROM post_neighbors WHERE post_id = ? ORDER BY score DESC LIMIT ?")
        for anchor in profile.anchors {
            var list: [Neighbor] = []
            // A cursor reads each row in place (this is the page's largest read: anchors × 30).
            let rows = try Row.fetchCursor(statement, arguments: [anchor.postID, ForYouSourceSizes.neighborsPerAnchor])
            while let row = try rows.next() { list.append(Neighbor(postID: row[0], score: row[1])) }
            lists[anchor.postID] = list
        }
        let (scores, best) = assembly.neighborScores(profile: profile, lists: lists)
        guard !best.isEmpty else { return (scores, []) }
        let kept = try ids(
            "SELECT p.id FROM posts p{conditions} AND p.id IN (\(SQLiteStore.placeholders(best.count))) LIMIT ?",
            [], limit: best.count, inserting: best
        )
        return (scores, kept)
    }

    /// `ids` with `extra` arguments between the conditions and the limit (an IN list).
    private func ids(_ sql: String, _ before: StatementArguments, limit: Int, inserting extra: [Int64]) throws -> [Int64] {
        let (conditions, arguments) = FeedQuery.conditions(userID: userID, filter: filter)
        let full = sql.replacingOccurrences(of: "{conditions}", with: conditions + unseen)
        return try Int64.fetchAll(db.makeStatement(sql: full), arguments: before + arguments + [userID] + StatementArguments(extra) + [limit])
    }

    /// Posts of the person's strongest tags, from a random point of each tag's posts.
    /// Returns the tag names as the vocabulary spells them, keyed by the profile's spelling.
    mutating func tagged(_ tags: [String], maxPostID: Int64) throws -> (posts: [Int64: String], spelling: [String: String]) {
        var posts: [Int64: String] = [:]
        var spelling: [String: String] = [:]
        for tag in tags.prefix(ForYouSourceSizes.tagsUsed) {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name FROM tags WHERE name = ?"), arguments: [tag]) else { continue }
            let tagID: Int64 = row[0]
            spelling[tag] = row[1]
            let start = ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)
            for bound in [" AND post_id < ?", ""] {
                let found = try ids("""
                    SELECT p.id FROM (SELECT post_id FROM post_tag_ids INDEXED BY post_tag_ids_by_tag_id
                                      WHERE tag_id = ?\(bound) ORDER BY post_id DESC LIMIT \(Self.scanLimit)) m
                    CROSS JOIN posts p ON p.id = m.post_id{conditions} LIMIT ?
                    """, bound.isEmpty ? [tagID] : [tagID, start], limit: sizes.perTag)
                for id in found where posts[id] == nil { posts[id] = tag }
                if found.count >= sizes.perTag { break }
            }
        }
        return (posts, spelling)
    }

    /// Posts of the person's strongest uploaders, from a random point of each one's posts.
    mutating func uploaded(_ uploaders: [String], maxPostID: Int64) throws -> [Int64: String] {
        var posts: [Int64: String] = [:]
        for key in uploaders.prefix(ForYouSourceSizes.uploadersUsed) {
            let start = ForYouAssembly.walkStart(maxPostID: maxPostID, using: &generator)
            for bound in [" AND id < ?", ""] {
                let found = try ids("""
                    SELECT p.id FROM (SELECT id FROM posts INDEXED BY posts_ready_by_uploader_key
                                      WHERE \(UploaderKeyFunction.name)(uploader, username) = ? AND status = 'ready'\(bound)
                                      ORDER BY id DESC LIMIT \(Self.scanLimit)) m
                    CROSS JOIN posts p ON p.id = m.id{conditions} LIMIT ?
                    """, bound.isEmpty ? [key] : [key, start], limit: sizes.perUploader)
                for id in found where posts[id] == nil { posts[id] = key }
                if found.count >= sizes.perUploader { break }
            }
        }
        return posts
    }

    /// The newest posts that may be served.
    func fresh() throws -> [Int64] {
        try ids("""
            SELECT p.id FROM (SELECT id FROM posts INDEXED BY posts_ready_by_added WHERE status = 'ready'
                              ORDER BY date_added DESC, id DESC LIMIT \(Self.scanLimit)) m
            CROSS JOIN posts p ON p.id = m.id{conditions} LIMIT ?
            """, [], limit: sizes.fresh)
    }

    /// The most popular posts now (time-decayed) that may be served.
    func popular() throws -> [Int64] {
        try ids("""
            SELECT p.id FROM (SELECT post_id FROM post_popularity INDEXED BY post_popularity_by_score
                              ORDER BY log_score DESC LIMIT \(Self.scanLimit)) m
            CROSS JOIN posts p ON p.id = m.post_id{conditions} LIMIT ?
            """, [], limit: sizes.want)
    }

    /// Unseen posts in a random order: a walk of a shuffle index from a random point (the
    /// shuffled feed's own walk, with its choice of a smaller driver for narrow filters),
    /// skipping seen posts. Not bounded: fewer than `count` means nothing else is unseen.
    func explore(order: FeedShuffle.EpochOrder, count: Int) throws -> [Int64] {
        let driver = try FeedQuery.chooseDriver(db, userID: userID, filter: filter) { try FeedQuery.threshold(db, limit: count) }
        let key = "p." + FeedShuffleColumns.name(order.column)
        var found: [Int64] = []
        for phase in 0...1 where found.count < count {
            var (sql, arguments) = FeedQuery.body(userID: userID, filter: filter, driver: driver, column: order.column)
            let upperPart = (phase == 0) != order.descending
            sql += (upperPart ? " AND \(key) >= ?" : " AND \(key) < ?") + unseen
            arguments += [order.start, userID]
            let direction = order.descending ? "DESC" : "ASC"
            sql = "SELECT p.id " + sql + " ORDER BY \(key) \(direction), p.id \(direction) LIMIT ?"
            found += try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments + [count - found.count])
        }
        return found
    }

    /// Seen posts that may be served again, least recently seen first: what For You serves once
    /// everything the person could be shown has been.
    func leastRecentlySeen(count: Int, excluding: Set<Int64>) throws -> [Int64] {
        let (conditions, arguments) = FeedQuery.conditions(userID: userID, filter: filter)
        let sql = "SELECT p.id FROM user_post_signals u INDEXED BY user_post_signals_by_seen CROSS JOIN posts p ON p.id = u.post_id"
            + conditions + " AND u.user_id = ? ORDER BY u.seen_at ASC, u.post_id ASC LIMIT ?"
        let found = try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments + [userID, count + excluding.count])
        return Array(found.filter { !excluding.contains($0) }.prefix(count))
    }

    /// What the scorer needs about each post: uploader key, tags, age, length and popularity
    /// (the decayed score relative to the most popular of these posts, 0…1, as eval scales it).
    func describe(_ postIDs: [Int64]) throws -> [Int64: Candidate] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(db.makeStatement(sql: """
            SELECT p.id, p.uploader, p.username, p.date_added, p.duration, pp.log_score,
                   (SELECT group_concat(t.name, char(31)) FROM post_tag_ids x JOIN tags t ON t.id = x.tag_id WHERE x.post_id = p.id)
            FROM posts p LEFT JOIN post_popularity pp ON pp.post_id = p.id
            WHERE p.id IN (\(SQLiteStore.placeholders(postIDs.count)))
            """), arguments: StatementArguments(postIDs))
        var candidates: [Int64: Candidate] = [:]
        var keys: [Int64: Double] = [:]
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let tags = (row[6] as String?)?.split(separator: "\u{1F}").map(String.init) ?? []
            candidates[id] = Candidate(
                postID: id, uploader: UploaderKey.key(uploader: row[1], username: row[2]), tags: tags,
                addedAt: RowDecoding.date(row[3]), durationSeconds: row[4],
                sources: []
            )
            keys[id] = row[5]
        }
        ForYouAssembly.scalePopularity(&candidates, logScores: keys)
        return candidates
    }
}

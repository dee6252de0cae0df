import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore

extension SQLiteStore: ForYouStore {
    public func signalCount(userID: Int64, atMost: Int) async throws -> Int {
        try await read { db in try ForYouProfileQuery.signalCount(db, userID: userID, atMost: atMost) }
    }

    /// One For You page (see `ForYouStore`): the profile, the candidate stage
    /// (`ForYouCandidates`), `ForYouScorer`, `FeedBlender`, then the served posts are marked
    /// seen. The page is chosen in one read transaction (readers never wait for the writer) and
    /// marked in a short write afterwards.
    public func forYouPage(
        userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date
    ) async throws -> (items: [ForYouItem], next: ForYouPosition?) {
        guard (1...Self.maxFeedPage).contains(limit) else {
            throw StoreError.invalid("a feed page holds 1 to \(Self.maxFeedPage) posts, not \(limit)")
        }
        let posts = feedPosts
        let items = try await read { db in
            try Self.chooseForYouPage(db, posts: posts, userID: userID, filter: filter, position: position, limit: limit, now: now)
        }
        guard let last = items.last else { return ([], nil) }
        try await write { db in
            let mark = try db.cachedStatement(sql: """
                INSERT INTO user_post_signals (user_id, post_id, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (user_id, post_id) DO UPDATE SET seen_at = max(seen_at, excluded.seen_at)
                """)
            for item in items { try mark.execute(arguments: [userID, item.item.post.id, RowDecoding.seconds(now)]) }
        }
        return (items, ForYouAssembly.next(after: position, lastPostID: last.item.post.id))
    }

    private static func chooseForYouPage(
        _ db: Database, posts: FeedPostCache, userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date
    ) throws -> [ForYouItem] {
        let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
        if resolved.matchesNothing { return [] }
        let profile = try ForYouProfileQuery.profile(db, userID: userID, now: now)
        let maxPostID = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM posts")) ?? 0
        var assembly = ForYouAssembly(limit: limit)
        var sources = ForYouCandidates(
            db: db, userID: userID, filter: resolved, sizes: assembly.sizes, generator: ForYouAssembly.walkGenerator(position)
        )
        let neighbors = try sources.neighbors(of: profile, in: assembly)
        assembly.addNeighbors(neighbors.scores, servable: neighbors.servable)
        let tagged = try sources.tagged(profile.topTags, maxPostID: maxPostID)
        let respelled = ForYouAssembly.respelled(profile, tagged.spelling)
        assembly.add(tagged.posts.keys, from: .tag)
        assembly.add(try sources.uploaded(profile.topUploaders, maxPostID: maxPostID).keys, from: .uploader)
        assembly.add(try sources.fresh(), from: .fresh)
        assembly.add(try sources.popular(), from: .popular)
        let order = FeedShuffle.order(seed: position.seed, epoch: position.page)
        let exploring = assembly.exploring(try sources.explore(order: order, count: limit))
        let recycleCount = assembly.recycleCount(exploring: exploring)
        let recycled = recycleCount > 0
            ? try sources.leastRecentlySeen(count: recycleCount, excluding: Set(assembly.origins.keys).union(exploring)) : []

        let previousUploader = try position.lastPostID.flatMap { id in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT uploader, username FROM posts WHERE id = ?"), arguments: [id])
                .flatMap { UploaderKey.key(uploader: $0[0], username: $0[1]) }
        }
        let page = assembly.page(
            described: try sources.describe(assembly.described(exploring: exploring, recycled: recycled)),
            exploring: exploring, recycled: recycled, profile: respelled, lengthPrior: try lengthPrior(db),
            position: position, now: now, previousUploader: previousUploader
        )
        return try present(db, posts: posts, userID: userID, page: page)
    }

    /// The chosen candidates as items with the viewer's state and their reasons.
    private static func present(_ db: Database, posts: FeedPostCache, userID: Int64, page: [ScoredCandidate]) throws -> [ForYouItem] {
        guard !page.isEmpty else { return [] }
        let ids = page.map(\.candidate.postID)
        let rows = try Row.fetchAll(db.makeStatement(sql: """
            SELECT p.id, p.revision, 0 AS feed_key,
                   s.favorited_at AS viewer_favorited_at, s.rating AS viewer_rating,
                   s.position AS viewer_position, s.seen_at AS viewer_seen_at
            FROM posts p LEFT JOIN post_user_state s ON s.user_id = ? AND s.post_id = p.id
            WHERE p.id IN (\(placeholders(ids.count)))
            """), arguments: [userID] + StatementArguments(ids))
        let byID = Dictionary(rows.map { (($0[0] as Int64), FeedRow($0)) }) { first, _ in first }
        let ordered = ids.compactMap { byID[$0] }
        let items = try posts.items(db, rows: ordered)
        var titles: [Int64: String] = [:]
        for anchor in ForYouAssembly.anchorIDs(of: page) {
            if let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT description, shortcode, folder_name FROM posts WHERE id = ?"), arguments: [anchor]
            ) {
                titles[anchor] = ReasonText.title(description: row[0], shortcode: row[1], folderName: row[2])
            }
        }
        return ForYouAssembly.items(items, page: page, titles: titles)
    }
}

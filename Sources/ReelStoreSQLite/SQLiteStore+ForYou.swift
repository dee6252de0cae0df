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
        return (items, ForYouPosition(seed: position.seed, page: position.page &+ 1, lastPostID: last.item.post.id))
    }

    private static func chooseForYouPage(
        _ db: Database, posts: FeedPostCache, userID: Int64, filter: FeedFilter, position: ForYouPosition, limit: Int, now: Date
    ) throws -> [ForYouItem] {
        let resolved = try ResolvedFeedFilter.resolve(db, filter, userID: userID)
        if resolved.matchesNothing { return [] }
        var profile = try ForYouProfileQuery.profile(db, userID: userID, now: now)
        let maxPostID = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM posts")) ?? 0
        let order = FeedShuffle.order(seed: position.seed, epoch: position.page)
        var sources = ForYouCandidates(
            db: db, userID: userID, filter: resolved, want: max(limit * 2, 12),
            generator: SplitMix64(state: position.seed ^ UInt64(truncatingIfNeeded: position.page) &* 0x9E37_79B9_7F4A_7C15)
        )

        // Candidate ids by source (a post may come from several).
        var origins: [Int64: Set<CandidateSource>] = [:]
        let neighbors = try sources.neighbors(of: profile)
        for id in neighbors.keys { origins[id, default: []].insert(.neighbor) }
        let tagged = try sources.tagged(profile.topTags, maxPostID: maxPostID)
        // The profile's tags as the vocabulary spells them, so they match the posts' tags.
        profile.tagAffinity = Dictionary(profile.tagAffinity.map { (tagged.spelling[$0.key] ?? $0.key, $0.value) }) { max($0, $1) }
        for id in tagged.posts.keys { origins[id, default: []].insert(.tag) }
        for id in try sources.uploaded(profile.topUploaders, maxPostID: maxPostID).keys { origins[id, default: []].insert(.uploader) }
        for id in try sources.fresh() { origins[id, default: []].insert(.fresh) }
        for id in try sources.popular() { origins[id, default: []].insert(.popular) }
        // A page's worth, of which about a third is served: exploration's weighted shuffle
        // chooses among them. (Twice a page cost 7 ms at the median in bench_foryou's 100k
        // library, for no gain the simulator could tell apart.)
        let exploreIDs = try sources.explore(order: order, count: limit).filter { origins[$0] == nil }
        // Fewer unseen posts than a page: everything has been seen; the least recently seen
        // come back (after whatever unseen posts are left).
        let unseenCount = origins.count + exploreIDs.count
        let recycled = unseenCount < limit
            ? try sources.leastRecentlySeen(count: limit - unseenCount, excluding: Set(origins.keys).union(exploreIDs)) : []

        let described = try sources.describe(Array(origins.keys) + exploreIDs + recycled)
        let scorer = ForYouScorer(lengthPrior: try lengthPrior(db))
        func candidate(_ id: Int64, _ origin: Set<CandidateSource>) -> Candidate? {
            guard var candidate = described[id] else { return nil }
            candidate.sources = origin
            if let neighbor = neighbors[id] {
                candidate.neighborScore = neighbor.score
                candidate.strongestAnchor = neighbor.strongestAnchor
            }
            return candidate
        }
        var ranked = scorer.rank(origins.compactMap { candidate($0.key, $0.value) }, profile: profile, now: now)
        ranked += recycled.compactMap { candidate($0, []).map { scorer.score($0, profile: profile, now: now) } }
        var exploreOrder = SplitMix64(state: position.seed &+ UInt64(truncatingIfNeeded: position.page) &* 0xBF58_476D_1CE4_E5B9)
        let explore = scorer.rankExplore(exploreIDs.compactMap { candidate($0, [.explore]) }, profile: profile, using: &exploreOrder)

        let previousUploader = try position.lastPostID.flatMap { id in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT uploader, username FROM posts WHERE id = ?"), arguments: [id])
                .flatMap { UploaderKey.key(uploader: $0[0], username: $0[1]) }
        }
        let page = FeedBlender().blend(ranked: ranked, explore: explore, limit: limit, previousUploader: previousUploader)
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
        for anchor in Set(page.compactMap { scored -> Int64? in
            switch scored.reason {
            case .liked(let id), .watched(let id): id
            default: nil
            }
        }) {
            if let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT description, shortcode, folder_name FROM posts WHERE id = ?"), arguments: [anchor]
            ) {
                titles[anchor] = ReasonText.title(description: row[0], shortcode: row[1], folderName: row[2])
            }
        }
        let reasons = Dictionary(page.map { ($0.candidate.postID, $0.reason) }) { first, _ in first }
        return items.map { item in
            let reason = reasons[item.post.id] ?? .explore
            let anchorTitle: String? = switch reason {
            case .liked(let id), .watched(let id): titles[id]
            default: nil
            }
            let name = UploaderKey.name(uploader: item.post.metadata.uploader, username: item.post.metadata.username)
            return ForYouItem(
                item: item, reasonKind: reason.kind, reason: ReasonText.sentence(reason, anchorTitle: anchorTitle, uploaderName: name)
            )
        }
    }
}

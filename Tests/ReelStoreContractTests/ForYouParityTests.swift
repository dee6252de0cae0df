import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelTestSupport
import Testing

/// The two stores side by side on the same library: For You is decided by the same recipe over
/// the same index walks, so one cursor must give the same pages, reasons included.
@Suite("For You gives the same pages on SQLite and PostgreSQL")
struct ForYouParityTests {
    /// The same library in `store`: posts of a few uploaders and tags, with shuffle keys fixed
    /// (they are random at insert) so the exploration walk is the same too; a viewer with a
    /// history, other people's watching, and neighbours. Answers the viewer's id.
    private func library(_ store: any PortableStore) async throws -> Int64 {
        let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "x", now: t0)
        var people: [Int64] = []
        for index in 0..<3 { people.append(try await store.createUser(name: "p\(index)", role: .member, passwordHash: "x", now: t0).id) }
        var ids: [Int64] = []
        for index in 0..<40 {
            let (post, _) = try await store.insertPost(
                NewPost(
                    kind: .video, folderName: "f\(index)",
                    metadata: PostMetadata(description: "Clip \(index)", uploader: "Maker \(index % 6)", tags: ["t\(index % 5)", "u\(index % 3)"]),
                    contentHash: "h\(index)", sourcePaths: ["sources/\(index).mp4"], dateAdded: t0.addingTimeInterval(Double(-index * 3_600))
                ),
                maxAttempts: 3, now: t0
            )
            var media = sampleMedia
            media.duration = Double(4 + index % 9 * 7)
            try await store.publish(postID: post.id, media: media, key: nil)
            let keys = (0..<FeedShuffle.keyCount).map { column in "shuffle\(column) = \((post.id * 7_919 + Int64(column) * 104_729) % 1_000_003)" }
            try await executeRaw(store, "UPDATE posts SET \(keys.joined(separator: ", ")) WHERE id = \(post.id)")
            ids.append(post.id)
        }
        var interactions: [PersonEvent] = []
        for (offset, post) in ids.prefix(6).enumerated() {
            interactions.append(PersonEvent(userID: viewer.id, event: WatchEvent(postID: post, type: .view, at: t0.addingTimeInterval(Double(offset * 60 - 7_200)),
                                            watchedMs: 9_000, durationMs: 9_000)))
        }
        interactions.append(PersonEvent(userID: viewer.id, event: WatchEvent(postID: ids[1], type: .favorite, at: t0.addingTimeInterval(-3_000))))
        interactions.append(PersonEvent(userID: viewer.id, event: WatchEvent(postID: ids[7], type: .skip, at: t0.addingTimeInterval(-2_000), watchedMs: 500)))
        for (index, person) in people.enumerated() {
            for post in ids.dropFirst(8 + index * 5).prefix(6) {
                interactions.append(PersonEvent(userID: person, event: WatchEvent(postID: post, type: index == 0 ? .like : .share, at: t0.addingTimeInterval(Double(-post * 10)))))
            }
        }
        try await loadEvents(store, interactions)
        try await loadNeighbors(store, [
            ids[0]: [Neighbor(postID: ids[20], score: 0.9), Neighbor(postID: ids[21], score: 0.4)],
            ids[1]: [Neighbor(postID: ids[22], score: 0.8), Neighbor(postID: ids[20], score: 0.3)],
            ids[5]: [Neighbor(postID: ids[30], score: 0.7)],
        ])
        _ = try await store.rebuildLengthBuckets(edges: LengthPrior.edges)
        return viewer.id
    }

    /// Five pages of For You (and, in between, a filtered one) as ids with reasons.
    private func pages(_ store: any PortableStore, viewer: Int64) async throws -> [[String]] {
        var pages: [[String]] = []
        var position = ForYouPosition.start(seed: 42)
        for page in 0..<5 {
            let filter = page == 2 ? FeedFilter(tags: ["T1"]) : FeedFilter()
            let result = try await ForYouFeed(source: store, feed: store).page(userID: viewer, filter: filter, position: position, limit: 6, now: t0.addingTimeInterval(Double(page)))
            pages.append(result.items.map { "\($0.item.post.id) \($0.reasonKind) \($0.reason)" })
            position = try #require(result.next)
        }
        return pages
    }

    @Test func oneCursorServesTheSamePagesFromEitherStore() async throws {
        try await withStore(.sqlite) { (sqlite) async throws in
            try await withStore(.postgres) { (postgres) async throws in
                let viewer = try await library(sqlite)
                #expect(try await library(postgres) == viewer)
                let fromSQLite = try await pages(sqlite, viewer: viewer)
                let fromPostgres = try await pages(postgres, viewer: viewer)
                #expect(fromSQLite.allSatisfy { !$0.isEmpty })
                let kinds = Set(fromSQLite.joined().compactMap { $0.split(separator: " ").dropFirst().first })
                #expect(kinds.count > 2, "several kinds of reasons: \(kinds)")
                #expect(fromPostgres == fromSQLite)
            }
        }
    }
}

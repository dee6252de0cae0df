import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelTestSupport
import Testing

/// For You's two short-term inputs kept by the store: the long-view rate per length bucket
/// (rebuilt by `recs.neighbors`) and the tags of what was served lately. One suite for both
/// stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Length prior and recent exposure on SQLite and PostgreSQL")
struct LengthPriorStoreTests {
    func post(_ store: any PortableStore, _ name: String, seconds: Double, tags: [String] = []) async throws -> Int64 {
        let (post, _) = try await store.insertPost(
            NewPost(kind: .video, folderName: name, metadata: PostMetadata(description: name, uploader: "U \(name)", tags: tags),
                    contentHash: name, sourcePaths: ["sources/\(name).mp4"], dateAdded: t0),
            maxAttempts: 3, now: t0
        )
        var media = sampleMedia
        media.duration = seconds
        try await store.publish(postID: post.id, media: media, key: nil)
        return post.id
    }

    @Test(arguments: StoreBackend.allCases)
    func theRebuildCountsJudgedViewsAndLongViewsPerLengthBucket(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            var people: [User] = []
            for index in 0..<3 { people.append(try await store.createUser(name: "p\(index)", role: .member, passwordHash: "x", now: t0)) }
            let short = try await post(store, "short", seconds: 5)
            let long = try await post(store, "long", seconds: 40)
            #expect(LengthPrior(counts: try await store.rebuildLengthBuckets(edges: LengthPrior.edges)) == .neutral, "no judged views yet: every lift is 1")

            var interactions: [PersonEvent] = []
            for (index, person) in people.enumerated() {
                let at = t0.addingTimeInterval(Double(index))
                // Everyone finishes the short clip; two of three skip the long one, one watches 20 s of it.
                interactions.append(PersonEvent(userID: person.id, event: WatchEvent(postID: short, type: .view, at: at, watchedMs: 5_000, durationMs: 5_000)))
                interactions.append(index < 2
                    ? PersonEvent(userID: person.id, event: WatchEvent(postID: long, type: .skip, at: at, watchedMs: 900))
                    : PersonEvent(userID: person.id, event: WatchEvent(postID: long, type: .view, at: at, watchedMs: 20_000, durationMs: 40_000)))
            }
            try await loadEvents(store, interactions)
            let prior = LengthPrior(counts: try await store.rebuildLengthBuckets(edges: LengthPrior.edges))
            #expect(prior.buckets[LengthPrior.bucket(seconds: 5)] == .init(judged: 3, longViews: 3))
            #expect(prior.buckets[LengthPrior.bucket(seconds: 40)] == .init(judged: 3, longViews: 1))
            #expect(prior.lift(seconds: 5) > 1 && prior.lift(seconds: 40) < 1)
            // Kept for the pages that follow.
            let kept = try await rawStrings(store, "SELECT bucket || ':' || judged || ':' || long_views FROM length_prior ORDER BY bucket")
            #expect(kept == ["\(LengthPrior.bucket(seconds: 5)):3:3", "\(LengthPrior.bucket(seconds: 40)):3:1"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func recentExposureCountsTheTagsOfTheLastServedPostsOnly(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "x", now: t0)
            let cats = try await post(store, "cats", seconds: 8, tags: ["cats"])
            let both = try await post(store, "both", seconds: 8, tags: ["cats", "dogs"])
            let old = try await post(store, "old", seconds: 8, tags: ["birds"])
            let now = t0.timeIntervalSince1970
            // Served two hours ago: outside the window.
            for (post, seenAt) in [(cats, now - 60), (both, now - 30), (old, now - 7_200)] {
                try await executeRaw(store, "INSERT INTO user_post_signals (user_id, post_id, seen_at) VALUES (\(viewer.id), \(post), \(seenAt))")
            }
            let exposure = try await recentTags(store, userID: viewer.id, now: t0).reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            #expect(exposure == ["cats": 2, "dogs": 1])
        }
    }
}

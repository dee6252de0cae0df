import Foundation
import GRDB
import ReelModels
import ReelRank
import ReelStore
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

/// For You's two short-term inputs kept by the store: the long-view rate per length bucket
/// (rebuilt by `recs.neighbors`) and the tags of what was served lately.
@Suite("Length prior and recent exposure")
struct LengthPriorStoreTests {
    let folder: TemporaryFolder
    let store: SQLiteStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteStore(path: folder.databasePath)
    }

    func post(_ name: String, seconds: Double, tags: [String] = []) async throws -> Int64 {
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

    @Test func theRebuildCountsJudgedViewsAndLongViewsPerLengthBucket() async throws {
        defer { folder.remove() }
        var people: [User] = []
        for index in 0..<3 { people.append(try await store.createUser(name: "p\(index)", role: .member, passwordHash: "x", now: t0)) }
        let short = try await post("short", seconds: 5)
        let long = try await post("long", seconds: 40)
        #expect(try await store.rebuildLengthPrior() == .neutral, "no judged views yet: every lift is 1")

        var interactions: [Interaction] = []
        for (index, person) in people.enumerated() {
            let at = t0.addingTimeInterval(Double(index))
            // Everyone finishes the short clip; two of three skip the long one, one watches 20 s of it.
            interactions.append(Interaction(userID: person.id, postID: short, type: .view, at: at, watchedMs: 5_000, durationMs: 5_000))
            interactions.append(index < 2
                ? Interaction(userID: person.id, postID: long, type: .skip, at: at, watchedMs: 900)
                : Interaction(userID: person.id, postID: long, type: .view, at: at, watchedMs: 20_000, durationMs: 40_000))
        }
        try store.loadInteractions(interactions)
        let prior = try await store.rebuildLengthPrior()
        #expect(prior.buckets[LengthPrior.bucket(seconds: 5)] == .init(judged: 3, longViews: 3))
        #expect(prior.buckets[LengthPrior.bucket(seconds: 40)] == .init(judged: 3, longViews: 1))
        #expect(prior.lift(seconds: 5) > 1 && prior.lift(seconds: 40) < 1)
        // Kept for the pages that follow.
        #expect(try await store.read { db in try SQLiteStore.lengthPrior(db) } == prior)
    }

    @Test func recentExposureCountsTheTagsOfTheLastServedPostsOnly() async throws {
        defer { folder.remove() }
        let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "x", now: t0)
        let cats = try await post("cats", seconds: 8, tags: ["cats"])
        let both = try await post("both", seconds: 8, tags: ["cats", "dogs"])
        let old = try await post("old", seconds: 8, tags: ["birds"])
        try await store.write { db in
            let mark = "INSERT INTO user_post_signals (user_id, post_id, seen_at) VALUES (?, ?, ?)"
            try db.execute(sql: mark, arguments: [viewer.id, cats, t0.timeIntervalSince1970 - 60])
            try db.execute(sql: mark, arguments: [viewer.id, both, t0.timeIntervalSince1970 - 30])
            // Served two hours ago: outside the window.
            try db.execute(sql: mark, arguments: [viewer.id, old, t0.timeIntervalSince1970 - 7_200])
        }
        let exposure = try await store.read { db in try ForYouProfileQuery.recentTagExposure(db, userID: viewer.id, now: t0) }
        #expect(exposure == ["cats": 2, "dogs": 1])
    }
}

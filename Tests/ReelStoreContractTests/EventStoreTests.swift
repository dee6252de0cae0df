import Foundation
import ReelForYou
import ReelModels
import ReelRank
import ReelStore
import ReelTestSupport
import Testing

/// A library with a viewer and ready posts, for the event tests, on either store.
struct EventLibrary {
    let store: any PortableStore
    let viewer: User

    init(_ store: any PortableStore) async throws {
        self.store = store
        viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
        try await store.grant(libraryID: Post.defaultLibraryID, userID: viewer.id)
    }

    /// A ready post with these tags and names (in `library`).
    func post(
        _ name: String, tags: [String] = ["dance"], uploader: String? = "Ana Example", username: String? = "ana.example",
        libraryID: Int64 = Post.defaultLibraryID, publish: Bool = true
    ) async throws -> Int64 {
        var post = newPost(folderName: name, tags: tags)
        post.metadata.uploader = uploader
        post.metadata.username = username
        post.libraryID = libraryID
        let (inserted, _) = try await store.insertPost(post, maxAttempts: 3, now: t0)
        if publish { try await store.publish(postID: inserted.id, media: sampleMedia, key: nil) }
        return inserted.id
    }

    func number(_ sql: String) async throws -> Double {
        try await rawNumber(store, sql)
    }

    func count(_ table: String) async throws -> Int {
        try await rawCount(store, table)
    }
}

func event(_ type: EventType, _ postID: Int64, at: Date = t0, id: UUID = UUID(), watched: Int? = nil, duration: Int? = nil, value: Int? = nil) -> WatchEvent {
    WatchEvent(id: id, postID: postID, type: type, at: at, watchedMs: watched, durationMs: duration, loops: watched == nil ? nil : 0, value: value)
}

/// One suite for both stores (SQLite and PostgreSQL): they must give the same answers.
@Suite("Watch events on SQLite and PostgreSQL: ingest, aggregates, history, hidden lists, upkeep")
struct EventStoreTests {
    @Test("a resent event counts once, within a batch and across batches", arguments: StoreBackend.allCases)
    func duplicatesCountOnce(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let post = try await library.post("a")
            let first = event(.like, post)
            let second = event(.view, post, at: t0 + 5, watched: 4_000, duration: 12_000)
            let outcome = try await store.recordEvents(userID: library.viewer.id, [first, first, second], aggregation: ForYouRules())
            #expect(outcome == .recorded(accepted: 2, duplicates: 1))
            let again = try await store.recordEvents(userID: library.viewer.id, [second, first, event(.share, post)], aggregation: ForYouRules())
            #expect(again == .recorded(accepted: 1, duplicates: 2))
            #expect(try await library.count("watch_events") == 3)
            // The duplicates changed no aggregate: like 2 + a third watched (0.6 · ⅓ − 0.2 = 0) + share 1.5.
            #expect(abs(try await library.number("SELECT label FROM user_post_signals") - 3.5) < 1e-9)
            #expect(try await library.number("SELECT views FROM user_post_signals") == 1)
            // Another person may use the same id: ids are per person.
            let other = try await store.createUser(name: "other", role: .owner, passwordHash: "h", now: t0)
            #expect(try await store.recordEvents(userID: other.id, [first], aggregation: ForYouRules()) == .recorded(accepted: 1, duplicates: 0))
        }
    }

    @Test("a batch naming a post the person may not see stores nothing, and says which event", arguments: StoreBackend.allCases)
    func allOrNothing(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let visible = try await library.post("a")
            let queued = try await library.post("queued", publish: false)
            let secret = try await store.createLibrary(name: "Secret", now: t0)
            let hidden = try await library.post("elsewhere", libraryID: secret.id)
            let anonymous = try await library.post("anonymous", uploader: nil, username: "  ")
            let viewer = library.viewer.id

            for (bad, reason) in [(queued, "post \(queued) does not exist"), (hidden, "post \(hidden) does not exist"), (9_999, "post 9999 does not exist")] {
                let outcome = try await store.recordEvents(userID: viewer, [event(.like, visible), event(.view, bad, watched: 1, duration: 2)], aggregation: ForYouRules())
                #expect(outcome == .refused(index: 1, reason: reason))
            }
            let noUploader = try await store.recordEvents(userID: viewer, [event(.like, visible), event(.hideUploader, anonymous)], aggregation: ForYouRules())
            #expect(noUploader == .refused(index: 1, reason: "post \(anonymous) has no uploader or username to hide"))
            for table in ["watch_events", "user_post_signals", "user_affinities", "post_popularity", "hidden_uploaders"] {
                #expect(try await library.count(table) == 0, "\(table) kept something of a refused batch")
            }
            // Granted the library, the post is fine; a live story is too.
            try await store.grant(libraryID: secret.id, userID: viewer)
            let story = try await fileStory(store, author: "ana", postedAt: Date())
            #expect(try await store.recordEvents(userID: viewer, [event(.like, hidden), event(.impression, story)], aggregation: ForYouRules()) == .recorded(accepted: 2, duplicates: 0))
        }
    }

    @Test("signals, affinities and popularity after a sequence of events", arguments: StoreBackend.allCases)
    func aggregatesAfterASequence(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let cats = try await library.post("cats", tags: ["cats", "funny"], uploader: " Ana Example ")
            let dogs = try await library.post("dogs", tags: ["dogs"], uploader: nil, username: "Bo")
            let day: TimeInterval = 86_400
            let events = [
                event(.impression, cats, at: t0),
                event(.view, cats, at: t0 + 10, watched: 12_000, duration: 12_000),   // long view: 1
                event(.like, cats, at: t0 + 11),                                        // 2
                event(.skip, dogs, at: t0 + 20, watched: 900),                         // -0.5
                event(.view, cats, at: t0 + 3 * day, watched: 3_000, duration: 12_000), // a quarter watched: 0.6 · ¼ − 0.2 = −0.05
                event(.rating, dogs, at: t0 + 3 * day, value: 5),                      // 1.5
            ]
            #expect(try await store.recordEvents(userID: library.viewer.id, events, aggregation: ForYouRules()) == .recorded(accepted: 6, duplicates: 0))

            func signal(_ column: String, _ post: Int64) async throws -> Double {
                try await library.number("SELECT \(column) FROM user_post_signals WHERE post_id = \(post)")
            }
            var catsRow: [Double] = []
            for column in ["impressions", "views", "long_views", "skips", "watched_ms"] { catsRow.append(try await signal(column, cats)) }
            #expect(catsRow == [1, 2, 1, 0, 15_000])
            #expect(abs(try await signal("label", cats) - 2.95) < 1e-9)
            #expect(try await signal("seen_at", cats) == t0.timeIntervalSince1970 + 3 * day)
            #expect(try await signal("watched_at", cats) == t0.timeIntervalSince1970 + 3 * day)
            #expect(try await signal("skips", dogs) == 1)
            #expect(try await signal("watched_ms", dogs) == 900)
            #expect(abs(try await signal("label", dogs) - 1) < 1e-9)

            // The tag moved by each weight, decayed between the events (the same rule as ReelRank's).
            var expected = Affinity.updated(score: nil, at: nil, adding: 1, now: t0 + 10)
            expected = Affinity.updated(score: expected.score, at: expected.at, adding: 2, now: t0 + 11)
            expected = Affinity.updated(score: expected.score, at: expected.at, adding: -0.05, now: t0 + 3 * day)
            #expect(expected.score < 2.95)
            for tag in ["cats", "funny"] {
                let stored = try await library.number("SELECT score FROM user_affinities WHERE kind = 0 AND key = '\(tag)'")
                #expect(abs(stored - expected.score) < 1e-9)
            }
            // Uploader keys: the trimmed, lowercased uploader, else the username.
            #expect(try await rawStrings(store, "SELECT key FROM user_affinities WHERE kind = 1 ORDER BY key") == ["ana example", "bo"])

            // Popularity: only positive weights, as ReelRank.Popularity folds them.
            var key: Double?
            for (weight, at) in [(1.0, t0 + 10), (2.0, t0 + 11)] { key = Popularity.adding(weight: weight, at: at, to: key) }
            #expect(abs(try await library.number("SELECT log_score FROM post_popularity WHERE post_id = \(cats)") - (key ?? 0)) < 1e-9)
            #expect(try await library.number("SELECT events FROM post_popularity WHERE post_id = \(cats)") == 2)
            #expect(try await library.number("SELECT events FROM post_popularity WHERE post_id = \(dogs)") == 1)

            // An impression alone marks the post seen but not watched.
            let fresh = try await library.post("fresh")
            _ = try await store.recordEvents(userID: library.viewer.id, [event(.impression, fresh, at: t0 + 99)], aggregation: ForYouRules())
            #expect(try await signal("seen_at", fresh) == t0.timeIntervalSince1970 + 99)
            #expect(try await library.number("SELECT COUNT(*) FROM user_post_signals WHERE post_id = \(fresh) AND watched_at IS NULL") == 1)
        }
    }

    @Test("a later batch folds into the stored aggregates as one batch would have", arguments: StoreBackend.allCases)
    func laterBatchesFoldIn(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let post = try await library.post("p", tags: ["cats"])
            let day: TimeInterval = 86_400
            let events = [event(.like, post, at: t0), event(.share, post, at: t0 + 2 * day), event(.like, post, at: t0 + day)]
            for single in events { _ = try await store.recordEvents(userID: library.viewer.id, [single], aggregation: ForYouRules()) }
            var expected: (score: Double, at: Date)?
            var key: Double?
            for (weight, at) in [(2.0, t0), (1.5, t0 + 2 * day), (2.0, t0 + day)] {
                expected = Affinity.updated(score: expected?.score, at: expected?.at, adding: weight, now: at)
                key = Popularity.adding(weight: weight, at: at, to: key)
            }
            #expect(abs(try await library.number("SELECT score FROM user_affinities WHERE kind = 0") - (expected?.score ?? 0)) < 1e-9)
            #expect(try await library.number("SELECT updated_at FROM user_affinities WHERE kind = 0") == t0.timeIntervalSince1970 + 2 * day)
            #expect(abs(try await library.number("SELECT log_score FROM post_popularity") - (key ?? 0)) < 1e-9)
            #expect(try await library.number("SELECT watched_at FROM user_post_signals") == t0.timeIntervalSince1970 + 2 * day)
            #expect(abs(try await library.number("SELECT label FROM user_post_signals") - 5.5) < 1e-9)
        }
    }

    @Test("batches sent at once lose no update of a shared post", arguments: StoreBackend.allCases)
    func concurrentBatches(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let post = try await EventLibrary(store).post("shared", tags: ["cats"])
            var people: [Int64] = []
            for index in 0..<6 { people.append(try await store.createUser(name: "p\(index)", role: .member, passwordHash: "h", now: t0).id) }
            try await withThrowingTaskGroup(of: EventBatchOutcome.self) { group in
                for person in people {
                    for batch in 0..<3 {
                        group.addTask { try await store.recordEvents(userID: person, [event(.like, post, at: t0 + Double(batch))], aggregation: ForYouRules()) }
                    }
                }
                for try await outcome in group { #expect(outcome == .recorded(accepted: 1, duplicates: 0)) }
            }
            #expect(try await rawNumber(store, "SELECT events FROM post_popularity") == 18)
            for person in people {
                #expect(try await rawNumber(store, "SELECT label FROM user_post_signals WHERE user_id = \(person)") == 6)
            }
        }
    }

    @Test("a late event adds what it would have added in order")
    func affinityIsOrderIndependent() {
        let inOrder = Affinity.updated(score: Affinity.updated(score: nil, at: nil, adding: 1, now: t0).score, at: t0, adding: 2, now: t0 + 86_400)
        let late = Affinity.updated(score: Affinity.updated(score: nil, at: nil, adding: 2, now: t0 + 86_400).score, at: t0 + 86_400, adding: 1, now: t0)
        #expect(abs(inOrder.score - late.score) < 1e-12 && inOrder.at == late.at)
        #expect(abs(Affinity.score(2, at: t0, now: t0 + Affinity.decaySeconds) - 2 / M_E) < 1e-12)
    }

    @Test("history pages newest first, forgets one post or everything, and keeps the hidden lists", arguments: StoreBackend.allCases)
    func historyPagingAndClearing(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let viewer = library.viewer.id
            var posts: [Int64] = []
            for index in 0..<5 { posts.append(try await library.post("p\(index)")) }
            var events = posts.enumerated().map { index, post in event(.view, post, at: t0 + Double(index), watched: 1_000, duration: 5_000) }
            events.append(event(.impression, try await library.post("only-shown"), at: t0 + 50))
            events.append(event(.notInterested, posts[0], at: t0 + 60))
            _ = try await store.recordEvents(userID: viewer, events, aggregation: ForYouRules())

            var seen: [Int64] = []
            var cursor: RecentPostCursor?
            repeat {
                let page = try await store.history(userID: viewer, after: cursor, limit: 2)
                seen += page.entries.map(\.postID)
                #expect(page.entries.allSatisfy { $0.item?.post.id == $0.postID })
                cursor = page.next
            } while cursor != nil
            // posts[0]'s "not interested" is its latest event: it is the newest watched.
            #expect(seen == [posts[0], posts[4], posts[3], posts[2], posts[1]])
            let first = try #require(try await store.history(userID: viewer, after: nil, limit: 1).entries.first)
            #expect(first.views == 1 && first.longViews == 0 && first.skips == 0 && first.watchedMs == 1_000 && first.watchedAt == t0 + 60)

            try await store.forgetHistory(userID: viewer, postID: posts[4])
            #expect(try await store.history(userID: viewer, after: nil, limit: 10).entries.map(\.postID) == [posts[0], posts[3], posts[2], posts[1]])
            #expect(try await library.number("SELECT COUNT(*) FROM watch_events WHERE post_id = \(posts[4])") == 0)
            await #expect(throws: StoreError.notFound("post \(posts[4]) in the history")) {
                try await store.forgetHistory(userID: viewer, postID: posts[4])
            }

            // A post no longer visible stays listed, without its item.
            let secret = try await store.createLibrary(name: "Secret", now: t0)
            try await store.grant(libraryID: secret.id, userID: viewer)
            let moving = try await library.post("moving", libraryID: secret.id)
            _ = try await store.recordEvents(userID: viewer, [event(.like, moving, at: t0 + 100)], aggregation: ForYouRules())
            try await store.revoke(libraryID: secret.id, userID: viewer)
            let top = try #require(try await store.history(userID: viewer, after: nil, limit: 1).entries.first)
            #expect(top.postID == moving && top.item == nil)

            try await store.clearHistory(userID: viewer)
            #expect(try await store.history(userID: viewer, after: nil, limit: 10).entries.isEmpty)
            for table in ["watch_events", "user_post_signals", "user_affinities"] { #expect(try await library.count(table) == 0) }
            #expect(try await store.notInterested(userID: viewer, after: nil, limit: 10).entries.map(\.postID) == [posts[0]])
            await #expect(throws: StoreError.self) { try await store.history(userID: viewer, after: nil, limit: 0) }
        }
    }

    @Test("not interested and hidden uploaders list newest first and undo", arguments: StoreBackend.allCases)
    func hiddenListsUndo(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let viewer = library.viewer.id
            let ana = try await library.post("ana", uploader: "Ana Example")
            let bo = try await library.post("bo", uploader: nil, username: "Bo")
            let cy = try await library.post("cy", uploader: "Cy")
            _ = try await store.recordEvents(userID: viewer, [
                event(.notInterested, ana, at: t0), event(.notInterested, cy, at: t0 + 2),
                event(.hideUploader, bo, at: t0 + 1), event(.hideUploader, ana, at: t0 + 3),
            ], aggregation: ForYouRules())
            let page = try await store.notInterested(userID: viewer, after: nil, limit: 1)
            #expect(page.entries.map(\.postID) == [cy] && page.entries[0].at == t0 + 2 && page.entries[0].item != nil)
            #expect(try await store.notInterested(userID: viewer, after: page.next, limit: 1).entries.map(\.postID) == [ana])
            #expect(try await store.hiddenUploaders(userID: viewer) == [
                HiddenUploaderEntry(uploader: "Ana Example", at: t0 + 3), HiddenUploaderEntry(uploader: "Bo", at: t0 + 1),
            ])

            try await store.undoNotInterested(userID: viewer, postID: cy)
            #expect(try await store.notInterested(userID: viewer, after: nil, limit: 10).entries.map(\.postID) == [ana])
            await #expect(throws: StoreError.self) { try await store.undoNotInterested(userID: viewer, postID: cy) }
            try await store.unhideUploader(userID: viewer, uploader: "ana example")
            #expect(try await store.hiddenUploaders(userID: viewer).map(\.uploader) == ["Bo"])
            await #expect(throws: StoreError.self) { try await store.unhideUploader(userID: viewer, uploader: "Ana Example") }
        }
    }

    @Test("expiry deletes old events in chunks and keeps the aggregates", arguments: StoreBackend.allCases)
    func expiry(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            let post = try await library.post("a")
            let old = (0..<(EventUpkeepRules.expiryChunk + 7)).map { index in event(.impression, post, at: t0 + Double(index) / 1_000) }
            for start in stride(from: 0, to: old.count, by: 500) {
                _ = try await store.recordEvents(userID: library.viewer.id, Array(old[start..<min(start + 500, old.count)]), aggregation: ForYouRules())
            }
            _ = try await store.recordEvents(userID: library.viewer.id, [event(.like, post, at: t0 + 86_400)], aggregation: ForYouRules())
            #expect(try await store.expireEvents(before: t0 + 3_600) == old.count)
            #expect(try await library.count("watch_events") == 1)
            #expect(try await library.number("SELECT impressions FROM user_post_signals") == Double(old.count))
            #expect(try await store.expireEvents(before: t0 + 3_600) == 0)
        }
    }

    @Test("the neighbour table is rebuilt from positive histories only", arguments: StoreBackend.allCases)
    func neighbours(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let library = try await EventLibrary(store)
            var posts: [Int64] = []
            for index in 0..<4 { posts.append(try await library.post("n\(index)")) }
            let second = try await store.createUser(name: "second", role: .owner, passwordHash: "h", now: t0)
            // The viewer likes 0 then 1 (and skips 3); the second person watches 1 then 2 to the end.
            _ = try await store.recordEvents(userID: library.viewer.id, [
                event(.like, posts[0], at: t0), event(.skip, posts[3], at: t0 + 1, watched: 500), event(.favorite, posts[1], at: t0 + 2),
            ], aggregation: ForYouRules())
            _ = try await store.recordEvents(userID: second.id, [
                event(.view, posts[1], at: t0, watched: 5_000, duration: 5_000), event(.impression, posts[3], at: t0 + 1),
                event(.view, posts[2], at: t0 + 2, watched: 5_000, duration: 5_000),
            ], aggregation: ForYouRules())
            let histories = try await store.positiveHistories(maxPerUser: 10, aggregation: ForYouRules())
            #expect(Set(histories) == [[posts[0], posts[1]], [posts[1], posts[2]]])
            #expect(try await store.positiveHistories(maxPerUser: 1, aggregation: ForYouRules()).isEmpty)

            try await store.replaceNeighbors(CoVisitation().neighbors(histories: histories))
            let rows = try await rawStrings(store, "SELECT post_id || '>' || neighbor_id FROM post_neighbors ORDER BY post_id, neighbor_id")
            #expect(rows == ["\(posts[0])>\(posts[1])", "\(posts[1])>\(posts[0])", "\(posts[1])>\(posts[2])", "\(posts[2])>\(posts[1])"])
            // A replacement replaces; a deleted post is skipped rather than failing the rebuild.
            try await store.deletePost(id: posts[2])
            try await store.replaceNeighbors([posts[0]: [Neighbor(postID: posts[2], score: 1), Neighbor(postID: posts[3], score: 0.5)]])
            #expect(try await rawStrings(store, "SELECT post_id || '>' || neighbor_id FROM post_neighbors") == ["\(posts[0])>\(posts[3])"])
        }
    }

    @Test("the most recent distinct posts keep their order")
    func mostRecentDistinct() {
        #expect(EventUpkeepRules.mostRecentDistinct([1, 2, 3, 2, 4], limit: 3) == [3, 2, 4])
        #expect(EventUpkeepRules.mostRecentDistinct([5, 5], limit: 3) == [5])
    }
}

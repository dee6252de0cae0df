import Foundation
import ReelForYou
import ReelModels
import ReelStore
@testable import ReelStorePostgres
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

/// `migrate-store --to postgres://…`: a library filled through the store protocols on SQLite,
/// copied into a fresh database of the test cluster, must give the same answers there.
@Suite("Copying a SQLite library into PostgreSQL")
struct StoreCopyTests {
    @Test("every table is copied, counts match, and the PostgreSQL store answers as the SQLite one did")
    func copiesAndAnswersTheSame() async throws {
        try await withFilledLibrary { sqlite, library, postgres in
            let expected = try await answers(sqlite, library)
            let report = try await PostgresBulkCopy(store: postgres, source: sqlite).run()
            #expect(report.finished)
            #expect(report.mismatches.isEmpty, "\(report.mismatches)")
            // Analysed at the end: the planner knows the tables are not empty (never analysed: -1).
            for table in ["posts", "post_tag_ids", "post_user_state"] {
                #expect(try await postgres.rawStrings("SELECT reltuples > 0 FROM pg_class WHERE oid = '\(table)'::regclass") == ["true"], "\(table)")
            }
            let copied = Set(report.counts.map(\.table))
            for table in ["users", "posts", "tags", "post_tag_ids", "post_user_state", "collections", "collection_items", "jobs",
                          "story_items", "story_views", "library_grants", "recent_searches", "sessions", "api_keys", "hidden_posts",
                          "watch_events", "user_post_signals", "user_affinities", "post_popularity"] {
                #expect(copied.contains(table), "\(table) was not copied")
                #expect((report.counts.first { $0.table == table }?.postgres ?? 0) > 0, "\(table) is empty, so the test shows nothing")
            }
            // The full-text index is SQLite's own: left out, with the reason said.
            let skipped = Dictionary(uniqueKeysWithValues: report.plan.skipped.map { ($0.table, $0.reason) })
            #expect(skipped["post_search_fields"]?.contains("full-text") == true, "\(skipped)")
            #expect(skipped["grdb_migrations"] != nil)
            // Parents come before children.
            let order = report.plan.tables.map(\.name)
            #expect(order.firstIndex(of: "users")! < order.firstIndex(of: "posts")!)
            #expect(order.firstIndex(of: "posts")! < order.firstIndex(of: "post_tag_ids")!)

            expectSame(try await answers(postgres, library), expected)
            // For You marks what it serves, so it is asked after the copy, of both stores.
            for user in library.users {
                let page = { (store: any PortableStore) in
                    try await ForYouFeed(source: store, feed: store).page(userID: user, filter: .all, position: .start(seed: 42), limit: 20, now: t0 + 1000).items
                }
                let served = try await page(sqlite)
                #expect(!served.isEmpty || user == library.revokedMember)
                #expect(try await page(postgres).map(\.item.post.id) == served.map(\.item.post.id))
            }
        }
    }

    @Test("an interrupted copy resumes after the rows it wrote, and a finished one only counts again")
    func resumes() async throws {
        try await withFilledLibrary { sqlite, library, postgres in
            let expected = try await answers(sqlite, library)
            let first = try await PostgresBulkCopy(store: postgres, source: sqlite, batchSize: 3).run(stopAfter: 10)
            #expect(!first.finished && first.copied >= 10 && first.copied < 13)
            let partial = try await postgres.rawStrings("SELECT sum(copied_rows)::text FROM reelhouse_store_copy")
            #expect(partial == [String(first.copied)])

            let second = try await PostgresBulkCopy(store: postgres, source: sqlite, batchSize: 3).run(stopAfter: 25)
            #expect(!second.finished)
            let rest = try await PostgresBulkCopy(store: postgres, source: sqlite, batchSize: 3).run()
            #expect(rest.finished && rest.mismatches.isEmpty, "\(rest.mismatches)")
            // Every row written exactly once over the three runs.
            #expect(first.copied + second.copied + rest.copied == rest.counts.map(\.source).reduce(0, +))
            expectSame(try await answers(postgres, library), expected)

            let again = try await PostgresBulkCopy(store: postgres, source: sqlite).run()
            #expect(again.finished && again.copied == 0 && again.mismatches.isEmpty)
        }
    }

    @Test("rows created after the copy get ids that were never used, not even by deleted rows")
    func newRowsGetFreshIDs() async throws {
        try await withFilledLibrary { sqlite, library, postgres in
            let highestPost = try await sqlite.posts(status: nil, limit: 1000).map(\.id).max() ?? 0
            // The newest post is deleted: its id (its media folder's name) must never come back.
            try await sqlite.deletePost(id: highestPost)
            let highestJob = try await sqlite.jobs(states: nil, limit: 1000).map(\.id).max() ?? 0

            let report = try await PostgresBulkCopy(store: postgres, source: sqlite).run()
            #expect(report.finished && report.mismatches.isEmpty)

            let user = try await postgres.createUser(name: "after-the-move", role: .member, passwordHash: "h", now: t0)
            #expect(user.id > library.users.max()!)
            let (post, job) = try await postgres.insertPost(newPost(folderName: "after", tags: ["dance", "new tag"]), maxAttempts: 3, now: t0)
            #expect(post.id > highestPost)
            #expect(job.id > highestJob)
            let collection = try await postgres.createCollection(name: "After", postIDs: [post.id], createdBy: user.id, now: t0)
            #expect(collection.id > library.collection)
            let created = try await postgres.createLibrary(name: "Later", now: t0)
            #expect(created.id > library.secondLibrary)
            // A new tag link lands after the copied ones: tag order on a copied post holds.
            try await postgres.addTags(postID: library.posts[0], tags: ["zz last"])
            #expect(try await postgres.post(id: library.posts[0])?.metadata.tags.last == "zz last")
            // The default library is still granted to new accounts (the trigger is back on).
            #expect(try await postgres.scope(userID: user.id, requested: nil).contains(Post.defaultLibraryID))
        }
    }

    @Test("a database that already holds a library is refused, and nothing is written")
    func refusesADatabaseInUse() async throws {
        try await withFilledLibrary { sqlite, _, postgres in
            _ = try await postgres.createUser(name: "already-here", role: .owner, passwordHash: "h", now: t0)
            await #expect(throws: PostgresStoreError.self) { try await PostgresBulkCopy(store: postgres, source: sqlite).run() }
            #expect(try await postgres.countUsers() == 1)
            #expect(try await postgres.rawStrings("SELECT to_regclass('reelhouse_store_copy') IS NULL") == ["true"])
        }
    }
}

/// A SQLite library in a temporary folder, filled by `fillLibrary`, and a fresh PostgreSQL store
/// on the test cluster to copy it into.
func withFilledLibrary(_ body: (SQLiteStore, FilledLibrary, PostgresStore) async throws -> Void) async throws {
    let folder = try TemporaryFolder(prefix: "reel-copy")
    defer { folder.remove() }
    let sqlite = try SQLiteStore(path: folder.databasePath)
    let library = try await fillLibrary(sqlite)
    try await withPostgresStore { postgres in try await body(sqlite, library, postgres) }
}

/// What `fillLibrary` made, for the checks.
struct FilledLibrary {
    var users: [Int64]
    var posts: [Int64]
    var collection: Int64
    var secondLibrary: Int64
    var revokedMember: Int64
}

/// A small library with some of everything, written only through the store protocols.
func fillLibrary(_ store: any PortableStore) async throws -> FilledLibrary {
    let owner = try await store.createUser(name: "Owner", role: .owner, passwordHash: "hash-o", now: t0)
    let ana = try await store.createUser(name: "Ana", role: .member, passwordHash: "hash-a", now: t0 + 1)
    let bo = try await store.createUser(name: "Bö", role: .member, passwordHash: "hash-b", now: t0 + 2)
    _ = try await store.createAPIKey(userID: ana.id, name: "phone", keyHash: "khash", prefix: "rh_ab", now: t0)
    try await store.createSession(userID: ana.id, tokenHash: "session-ana", expiresAt: t0 + 86_400, now: t0)
    let family = try await store.createLibrary(name: "Family", now: t0)
    _ = try await store.setMembers(libraryID: family.id, userIDs: [ana.id])
    // Bo loses the default library: the copy must not grant it back.
    try await store.revoke(libraryID: Post.defaultLibraryID, userID: bo.id)
    _ = try await store.renameLibrary(id: Post.defaultLibraryID, name: "Everyone")

    var posts: [Int64] = []
    for index in 0..<12 {
        var post = newPost(folderName: "clip-\(index)", tags: ["Dance", "tag \(index % 3)", index.isMultiple(of: 2) ? "even" : "odd"],
                           dateAdded: t0 + Double(index) * 60)
        post.libraryID = index.isMultiple(of: 4) ? family.id : Post.defaultLibraryID
        post.metadata.description = "Clip number \(index) — café"
        post.createdBy = index.isMultiple(of: 5) ? ana.id : nil
        let (inserted, _) = try await store.insertPost(post, maxAttempts: 3, now: t0)
        if index != 11 { try await store.publish(postID: inserted.id, media: sampleMedia, key: Data([UInt8](repeating: UInt8(index), count: 16))) }
        posts.append(inserted.id)
    }
    try await store.addFlag(postID: posts[1], flag: "Keeper")
    try await store.editPost(id: posts[2], description: .some("Renamed"), tags: ["solo", "Dance"])
    for (user, post) in [(ana.id, posts[0]), (ana.id, posts[3]), (bo.id, posts[3]), (owner.id, posts[5])] {
        try await store.setFavorite(userID: user, postID: post, favorited: true, now: t0 + 100)
    }
    try await store.setRating(userID: ana.id, postID: posts[1], rating: 4, now: t0 + 100)
    try await store.setPosition(userID: ana.id, postID: posts[6], seconds: 1.25, now: t0 + 100)
    try await store.markSeen(userID: bo.id, postID: posts[7], now: t0 + 100)
    let collection = try await store.createCollection(name: "Best of", postIDs: [posts[5], posts[1], posts[3]], createdBy: owner.id, now: t0)
    _ = try await store.createCollection(name: "second", postIDs: [posts[2]], createdBy: nil, now: t0)
    try await store.recordSearch(userID: ana.id, query: "Dance", now: t0)
    try await store.recordSearch(userID: ana.id, query: "café", now: t0 + 5)
    // Events: what For You learns from, and Ana's "not interested" (a hidden post).
    _ = try await store.recordEvents(userID: ana.id, [
        WatchEvent(id: UUID(), postID: posts[4], type: .view, at: t0 + 200, watchedMs: 9_000, durationMs: 10_000),
        WatchEvent(id: UUID(), postID: posts[9], type: .notInterested, at: t0 + 210),
    ], aggregation: ForYouRules())
    // Stories: one of Ana's, seen and liked by the owner (Bo no longer sees library 1).
    let story = try await fileStory(store, author: "Ana", userID: ana.id, postedAt: t0 + 500)
    _ = try await store.markStoriesSeen(viewerID: owner.id, postIDs: [story], now: t0 + 600)
    try await store.setStoryLike(viewerID: owner.id, postID: story, liked: true, now: t0 + 600)
    // Jobs in several states.
    _ = try await store.enqueue(kind: .storageSweep, subject: "sweep", maxAttempts: 1, timeLimit: 60, now: t0)
    if let claimed = try await store.claim(workerID: "w1", kinds: [.transcode], leaseDuration: 60, now: t0 + 1) {
        try await store.succeed(jobID: claimed.id, workerID: "w1", now: t0 + 2)
    }
    return FilledLibrary(users: [owner.id, ana.id, bo.id], posts: posts, collection: collection.id,
                         secondLibrary: family.id, revokedMember: bo.id)
}

/// The library as every user sees it through the protocols, as comparable text.
func answers(_ store: any PortableStore, _ library: FilledLibrary) async throws -> [String] {
    var lines: [String] = []
    func add(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
    add("users", try await store.users())
    add("libraries", try await store.libraries())
    add("api keys", try await store.apiKeys(userID: nil))
    add("session", try await store.authenticate(sessionTokenHash: "session-ana", now: t0) as Any)
    add("posts", try await store.posts(status: nil, limit: 100))
    add("tag counts", try await store.tagCounts())
    add("collections", try await store.collections())
    add("jobs", try await store.jobs(states: nil, kinds: nil, limit: 100))
    for post in library.posts {
        add("sources \(post)", try await store.sourcePaths(postID: post))
        add("key \(post)", try await store.encryptionKey(postID: post) as Any)
    }
    for user in library.users {
        add("scope \(user)", try await store.scope(userID: user, requested: nil))
        add("feed \(user)", try await store.feedPage(userID: user, filter: .all, position: .start(seed: 42), limit: 50).items)
        add("feed count \(user)", try await store.countFeed(userID: user, filter: .all))
        add("favorites \(user)", try await store.favorites(userID: user, after: nil, limit: 50).posts)
        add("viewer states \(user)", try await store.viewerStates(userID: user, postIDs: library.posts).sorted { $0.key < $1.key })
        add("tag counts \(user)", try await store.tagCounts(userID: user))
        add("browse \(user)", try await store.browse(userID: user, query: BrowseQuery(), after: nil, limit: 50).items)
        add("recent searches \(user)", try await store.recentSearches(userID: user))
        add("story tray \(user)", try await store.storyTray(viewerID: user, now: t0 + 700, after: nil, limit: 20).entries)
        for text in ["clip", "cafe", "#dance", "renamed", "@ana"] {
            add("search \(text) \(user)", try await store.search(userID: user, library: nil, query: .parse(text), offset: 0, limit: 50))
        }
        // The item's revision left out: the two stores differ there on their own (PostgreSQL
        // fills it in history and "not interested", SQLite leaves it nil), copy or not.
        add("history \(user)", withoutRevisions("\(try await store.history(userID: user, after: nil, limit: 50).entries)"))
        add("not interested \(user)", withoutRevisions("\(try await store.notInterested(userID: user, after: nil, limit: 50).entries)"))
    }
    return lines
}

/// Line by line, so a failure names the answer that differs.
func expectSame(_ actual: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (got, wanted) in zip(actual, expected) where got != wanted {
        let same = zip(got, wanted).prefix { $0 == $1 }.count
        let label = got.prefix { $0 != ":" }
        Issue.record("\(label) differs at \(same): PostgreSQL …\(got.dropFirst(max(0, same - 80)).prefix(200))\nSQLite …\(wanted.dropFirst(max(0, same - 80)).prefix(200))",
                     sourceLocation: sourceLocation)
    }
}

func withoutRevisions(_ text: String) -> String {
    text.replacingOccurrences(of: #"revision: Optional\(\d+\)"#, with: "revision: nil", options: .regularExpression)
}

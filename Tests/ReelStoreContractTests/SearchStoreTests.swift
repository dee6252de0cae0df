import Foundation
import GRDB
import ReelModels
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

/// Search against a real SQLite file and a real PostgreSQL database: what a person types
/// finds what they mean, filters filter, the index follows every edit, no input is an error,
/// and both stores give the same posts in the same order.
@Suite("Search store on SQLite and PostgreSQL")
struct SearchStoreTests {
    /// A library of posts with distinct texts, on a fresh store of one backend.
    struct Library {
        let store: any PortableStore
        let viewer: Int64
        var ids: [String: Int64] = [:]

        @discardableResult
        mutating func add(
            _ name: String, description: String? = nil, tags: [String] = [], uploader: String? = nil, username: String? = nil,
            shortcode: String? = nil, ready: Bool = true
        ) async throws -> Int64 {
            let metadata = PostMetadata(description: description, uploader: uploader, username: username, shortcode: shortcode, tags: tags)
            let (post, _) = try await store.insertPost(
                NewPost(kind: .video, folderName: name, metadata: metadata, contentHash: name, sourcePaths: ["sources/\(name).mp4"], dateAdded: t0),
                maxAttempts: 1, now: t0
            )
            if ready { try await store.publish(postID: post.id, media: sampleMedia, key: nil) }
            ids[name] = post.id
            return post.id
        }

        /// The names of the posts `text` finds, best first.
        func find(_ text: String, limit: Int = 50) async throws -> [String] {
            let items = try await store.search(userID: viewer, query: SearchQuery.parse(text), offset: 0, limit: limit).items
            return items.map { item in ids.first { $0.value == item.post.id }?.key ?? "?" }
        }
    }

    func withLibrary(_ backend: StoreBackend, _ body: (inout Library) async throws -> Void) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            var library = Library(store: store, viewer: viewer.id)
            try await library.add("leon", description: "Léon: the professional", uploader: "Cinema Club")
            try await library.add("spider", description: "Spider-Man swings", tags: ["marvel"])
            try await library.add("robot", description: "Mr. Robot season one", username: "elliot.alderson")
            try await library.add("creme", description: "Crème brûlée at home", tags: ["dessert"], uploader: "Chef Zoë")
            try await library.add("cats", description: "a nap in the sun", tags: ["cats", "Cute"])
            try await library.add("queued", description: "Léon again, still transcoding", ready: false)
            try await body(&library)
        }
    }

    @Test("what a person types finds what they mean", arguments: StoreBackend.allCases)
    func findsWhatIsMeant(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            #expect(try await library.find("leon") == ["leon"], "diacritics fold; queued posts are not results")
            #expect(try await library.find("LÉON") == ["leon"])
            #expect(try await library.find("spider man") == ["spider"])
            #expect(try await library.find("spiderman") == ["spider"], "a hyphenated word written as one")
            #expect(try await library.find("elliotalderson") == ["robot"], "a dotted username written as one")
            #expect(try await library.find("spider swings") == ["spider"])
            #expect(try await library.find("mr robot") == ["robot"])
            #expect(try await library.find("mr. robot") == ["robot"])
            #expect(try await library.find("creme brulee") == ["creme"])
            #expect(try await library.find("brul") == ["creme"], "a substring of a long word")
            #expect(try await library.find("rûl") == ["creme"])
            #expect(try await library.find("ession") == ["leon"], "the middle of 'professional'")
            #expect(try await library.find("prof") == ["leon"], "a word prefix")
            #expect(try await library.find("dessert") == ["creme"], "a tag")
            #expect(try await library.find("nap") == ["cats"], "a word only in the description")
            #expect(try await library.find("zoe") == ["creme"], "the uploader")
            #expect(try await library.find("alderson") == ["robot"], "the username")
            #expect(try await library.find("\"mr robot\"") == ["robot"], "a phrase")
            #expect(try await library.find("\"robot mr\"").isEmpty, "a phrase keeps its order")
            #expect(try await library.find("leon robot").isEmpty, "every word must match")
        }
    }

    @Test("tag:, -tag: and @ filter; filters alone list what they keep", arguments: StoreBackend.allCases)
    func filters(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            try await library.add("draft", description: "cats not yet ready", tags: ["cats"], ready: false)
            #expect(try await library.find("tag:cats") == ["cats"], "tags alone find ready posts only")
            #expect(try await library.find("tag:cats tag:cute") == ["cats"])
            #expect(try await library.find("tag:cats tag:dessert").isEmpty, "every tag filter must hold")
            #expect(try await library.find("tag:cats -tag:cute").isEmpty)
            #expect(try await library.find("tag:cats nap") == ["cats"])
            #expect(try await library.find("tag:cats ready").isEmpty, "the text must match too")
            #expect(try await library.find("tag:CUTE") == ["cats"], "tag names ignore case")
            #expect(try await library.find("tag:cat").isEmpty, "a tag filter names a whole tag")
            #expect(try await library.find("nap -tag:cats").isEmpty)
            #expect(Set(try await library.find("-tag:cats")) == ["leon", "spider", "robot", "creme"])
            #expect(try await library.find("tag:\"dessert\" creme") == ["creme"])
            #expect(try await library.find("@zoe") == ["creme"])
            #expect(try await library.find("@elliot.alderson") == ["robot"])
            #expect(try await library.find("@robot").isEmpty, "@ looks at people only")
            #expect(try await library.find("tag:nosuchtag").isEmpty)
            try await library.add("hartley", uploader: "J. R. Hartley")
            #expect(try await library.find("@j") == ["hartley"], "a one-letter @ word is a whole word of the people")
            #expect(try await library.find("@h").isEmpty)
            #expect(try await library.find("@ha") == ["hartley"])
        }
    }

    @Test("a post whose tag matches ranks above one where only the description does", arguments: StoreBackend.allCases)
    func tagsOutrankDescriptions(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            try await library.add("mentions", description: "my neighbour's cats and their long afternoon naps in the garden")
            #expect(try await library.find("cats") == ["cats", "mentions"])
        }
    }

    @Test("the rank adds the weights of the fields each word is in — tags, people, shortcode, description — then newest first; pages cut that order", arguments: StoreBackend.allCases)
    func rankByFields(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            try await library.add("desc-old", description: "late night jazz")
            try await library.add("tag", description: "sax solo", tags: ["Jazz"])
            try await library.add("person", uploader: "Jazz Club")
            try await library.add("code", shortcode: "jazz42")
            try await library.add("desc-new", description: "more jazz please")
            try await library.add("tag-person", tags: ["jazz"], uploader: "Jazz Hands")
            try await library.add("joined", description: "jazz-funk night")
            let expected = ["tag-person", "tag", "person", "joined", "code", "desc-new", "desc-old"]
            #expect(try await library.find("jazz") == expected)
            #expect(try await library.find("JAZ") == expected, "a word's start scores as the word does")
            var paged: [String] = []
            var offset = 0
            while true {
                let page = try await library.store.search(userID: library.viewer, query: SearchQuery.parse("jazz"), offset: offset, limit: 3)
                paged += page.items.map { item in library.ids.first { $0.value == item.post.id }?.key ?? "?" }
                offset += 3
                if !page.hasMore { break }
            }
            #expect(paged == expected)
            #expect(try await library.find("jazz night") == ["joined", "desc-old"], "both words count")
            #expect(try await library.find("\"late night\"") == ["desc-old"])
        }
    }

    @Test("accents and case fold in every script, whichever way the word is typed", arguments: StoreBackend.allCases)
    func foldsEveryScript(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            for (name, description, tag, uploader) in [
                ("greek", "Ελληνικά τραγούδια", nil, nil), ("russian", "Ёлка в лесу", "Зима", nil),
                ("vietnamese", "Phở bò Hà Nội", nil, nil), ("spanish", "El ñandú corre", nil, "Peña"),
            ] {
                try await library.add(name, description: description, tags: tag.map { [$0] } ?? [], uploader: uploader)
            }
            let cases: [(query: String, found: [String])] = [
                ("ελληνικα", ["greek"]), ("ΤΡΑΓΟΥΔΙΑ", ["greek"]),
                ("елка", ["russian"]), ("ЁЛКА", ["russian"]), ("зима", ["russian"]), ("в", ["russian"]),
                // Tag filters ignore ASCII case only, as tag names do.
                ("tag:Зима", ["russian"]), ("tag:зима", []), ("tag:Зима лес", ["russian"]),
                ("pho ha noi", ["vietnamese"]), ("\"ha noi\"", ["vietnamese"]), ("nandu", ["spanish"]), ("@pena", ["spanish"]),
            ]
            for (query, found) in cases {
                #expect(try await library.find(query) == found, "\(query)")
            }
        }
    }

    @Test("punctuation, FTS5 syntax and huge inputs are queries like any other, never errors", arguments: StoreBackend.allCases)
    func nastyInputs(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            let nasty = [
                "", "   ", "!!!", "\"", "\"\"", "*", "* OR *", "NEAR(a b)", "NEAR(", "a OR b", "leon AND", "AND", "OR", "NOT leon",
                "-", "--", ":", "description:leon", "tags : cats", "^leon", "leon*", "(", ")", "{people}: x", "tag:", "-tag:", "@", "@@",
                "\u{0301}", "e\u{0301}", "'; DROP TABLE posts; --", String(repeating: "a", count: 2000),
                String(repeating: "leon ", count: 400), String(repeating: "\"( NEAR * ", count: 200),
            ]
            for text in nasty {
                _ = try await library.find(text)
            }
            #expect(try await library.find("NOT leon").isEmpty, "NOT is a word here, and no post says 'not'")
            #expect(try await library.find("leon*") == ["leon"])
            #expect(try await library.find("\"leon").isEmpty == false, "an unclosed quote runs to the end")
            #expect(try await library.find("").isEmpty)
            #expect(try await library.find("!!!").isEmpty)
            if let sqlite = library.store as? SQLiteStore { #expect(try sqlite.check() == "ok") }
        }
    }

    @Test("the index follows edits, tags, tag renames, status and deletes", arguments: StoreBackend.allCases)
    func indexFollowsChanges(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            let id = try #require(library.ids["cats"])
            var metadata = try #require(try await library.store.post(id: id)).metadata
            metadata.description = "a fierce tiger"
            try await library.store.updateMetadata(postID: id, metadata: metadata)
            #expect(try await library.find("nap").isEmpty)
            #expect(try await library.find("tiger") == ["cats"])

            try await library.store.addTags(postID: id, tags: ["Felines"])
            #expect(try await library.find("felines") == ["cats"])
            try await library.store.removeTag(postID: id, tag: "felines")
            #expect(try await library.find("felines").isEmpty)

            try await Self.execute(library.store, sqlite: "UPDATE tags SET name = 'Kittens' WHERE name = 'cats'",
                                   postgres: "UPDATE tags SET name = 'Kittens', name_key = 'kittens' WHERE name_key = 'cats'")
            #expect(try await library.find("kittens") == ["cats"])
            #expect(try await library.find("tag:kittens") == ["cats"])

            let queued = try #require(library.ids["queued"])
            try await library.store.publish(postID: queued, media: sampleMedia, key: nil)
            #expect(Set(try await library.find("leon")) == ["leon", "queued"])
            try await library.store.setStatus(postID: queued, status: .failed, failureReason: "broken")
            #expect(try await library.find("leon") == ["leon"])

            try await library.store.deletePost(id: id)
            #expect(try await library.find("tiger").isEmpty)
            let key = library.store is SQLiteStore ? "rowid" : "post_id"
            #expect(try await rawStrings(library.store, "SELECT count(*) FROM post_search_fields WHERE \(key) = \(id)") == ["0"])

            #expect(try await library.store.rebuildSearchIndex() == 4)
            #expect(try await library.find("brul") == ["creme"])
        }
    }

    @Test("pages follow each other by offset, without repeats, up to the depth bound", arguments: StoreBackend.allCases)
    func pagination(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            for index in 0..<7 { try await library.add("clip\(index)", description: "holiday clip number \(index)") }
            var seen: [Int64] = []
            var offset = 0
            while true {
                let page = try await library.store.search(userID: library.viewer, query: SearchQuery.parse("holiday"), offset: offset, limit: 3)
                seen += page.items.map(\.post.id)
                offset += 3
                if !page.hasMore { break }
            }
            #expect(seen.count == 7 && Set(seen).count == 7)
            await #expect(throws: StoreError.self) {
                try await library.store.search(userID: library.viewer, query: SearchQuery.parse("x"), offset: library.store.maxSearchResults, limit: 1)
            }
        }
    }

    @Test("a search matching more posts than it ranks ranks the newest, in pages that neither repeat nor skip", arguments: StoreBackend.allCases)
    func broadSearchesRankTheNewest(backend: StoreBackend) async throws {
        try await withStore(backend) { (store) async throws in
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            let depth = store.maxSearchResults
            try await Self.insertSyntheticPosts(store, count: depth + 7)
            let newest = try await rawStrings(store, "SELECT id FROM posts ORDER BY id DESC LIMIT \(depth)").compactMap { Int64($0) }
            var seen: [Int64] = []
            var offset = 0
            while true {
                let page = try await store.search(userID: viewer.id, query: SearchQuery.parse("synthetic clip"), offset: offset, limit: 60)
                seen += page.items.map(\.post.id)
                offset += 60
                if !page.hasMore || offset + 60 > depth { break }
            }
            #expect(Set(seen).count == seen.count, "no post twice")
            #expect(Set(seen).isSubset(of: Set(newest)), "only the newest matches are ranked")
            #expect(seen.count == 960)
            // The description holds "#topicN", the tags "topicN": a tag match outranks a description-only one.
            let ranked = try await store.search(userID: viewer.id, query: SearchQuery.parse("topic1"), offset: 0, limit: 60).items
            var tagged: [Bool] = []
            for item in ranked {
                tagged.append(try await rawStrings(store, """
                    SELECT count(*) FROM post_tag_ids l JOIN tags t ON t.id = l.tag_id WHERE l.post_id = \(item.post.id) AND t.name LIKE 'topic1%'
                    """) == ["1"])
            }
            #expect(tagged.contains(true))
            #expect(tagged.firstIndex(of: false).map { index in !tagged[index...].contains(true) } ?? true, "tag matches come first")
        }
    }

    @Test("the words searched for come back folded, for highlighting", arguments: StoreBackend.allCases)
    func terms(backend: StoreBackend) async throws {
        try await withLibrary(backend) { (library: inout Library) async throws in
            let results = try await library.store.search(
                userID: library.viewer, query: SearchQuery.parse("Crème BRÛLÉE \"mr robot\" @zoë tag:cats crème"), offset: 0, limit: 5
            )
            #expect(results.terms == ["creme", "brulee", "mr", "robot", "zoe"])
            // Vowel signs belong to their word, a danda ends one.
            let indic = try await library.store.search(
                userID: library.viewer, query: SearchQuery.parse("किताब। हिंदी ที่นี่"), offset: 0, limit: 5
            )
            #expect(indic.terms == ["किताब", "हिंदी", "ที่นี่"])
        }
    }

    @Test("the query language splits the way the index does")
    func parsing() {
        #expect(SearchQuery.parse("Spider-Man") == SearchQuery(words: ["spider", "man"]))
        #expect(SearchQuery.parse("tag:cats -tag:Dogs @ana.ex \"mr robot\" Léon") == SearchQuery(
            words: ["léon"], phrases: [["mr", "robot"]], people: ["ana", "ex"], tags: ["cats"], excludedTags: ["Dogs"]
        ))
        #expect(SearchQuery.parse("tag:\"cute cats\"").tags == ["cute cats"])
        #expect(SearchQuery.parse(String(repeating: "word ", count: 100)).words.count == SearchQuery.maxTerms)
        #expect(SearchQuery.parse("*** ( ) : -").isEmpty)
    }

    /// Runs one raw statement on either backend, for changes no protocol makes (a tag rename).
    static func execute(_ store: any PortableStore, sqlite: String, postgres: String) async throws {
        if let store = store as? SQLiteStore { try await store.write { db in try db.execute(sql: sqlite) } }
        if let store = store as? PostgresStore { try await store.executeForTesting(postgres) }
    }

    /// `count` ready posts "Synthetic clip N #topicK", each tagged with one of 500 topics
    /// (long-tailed: low numbers are common), as `SQLiteStore.insertSyntheticPosts` makes them.
    static func insertSyntheticPosts(_ store: any PortableStore, count: Int) async throws {
        if let store = store as? SQLiteStore { try store.insertSyntheticPosts(count: count, tagsPerPost: 1, now: t0) }
        if let store = store as? PostgresStore {
            try await store.executeForTesting("INSERT INTO tags (name, name_key) SELECT 'topic' || k, 'topic' || k FROM generate_series(0, 499) AS k")
            try await store.executeForTesting("""
                INSERT INTO posts (folder_name, kind, status, description, uploader, username, shortcode, date_added, content_hash)
                SELECT 'synthetic-' || n, 'video', 'ready', 'Synthetic clip ' || n || ' #topic' || (n % 500),
                       'Uploader ' || (n % 997), 'user' || (n % 997), 's' || n, 1700000000 + n, 'h' || n
                FROM generate_series(0, \(count - 1)) AS n
                """)
            try await store.executeForTesting("""
                INSERT INTO post_tag_ids (post_id, tag_id)
                SELECT p.id, t.id FROM posts p
                JOIN tags t ON t.name = 'topic' || floor(power(((p.id * 7919) % 1000) / 1000.0, 2) * 500)::int
                """)
        }
    }
}

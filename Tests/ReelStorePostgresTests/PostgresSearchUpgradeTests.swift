import Foundation
import GRDB
import ReelModels
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing

@Suite("Search on PostgreSQL: the p6 and p8 upgrades")
struct PostgresSearchUpgradeTests {
    @Test("upgrading a PostgreSQL database from p6 indexes its ready posts")
    func postgresMigrationFillsIndex() async throws {
        try await withPostgresStore(migrating: false) { (store) async throws in
            let before = try #require(ReelStorePostgres.Schema.migrations.firstIndex { $0.version == "p7_search" })
            _ = try await store.migrate(Array(ReelStorePostgres.Schema.migrations.prefix(before)))
            for statement in [
                """
                INSERT INTO posts (id, folder_name, kind, status, description, uploader, date_added, content_hash)
                    VALUES (1, 'a', 'video', 'ready', 'Crème brûlée', 'Chef Zoë', 1700000000, 'ha'),
                           (2, 'b', 'video', 'queued', 'Crème again', NULL, 1700000001, 'hb')
                """,
                "INSERT INTO tags (name, name_key) VALUES ('Dessert', 'dessert')",
                "INSERT INTO post_tag_ids (post_id, tag_id) SELECT 1, id FROM tags",
            ] {
                try await store.executeForTesting(statement)
            }
            #expect(try await store.migrate().contains("p7_search"))
            #expect(try await store.schemaVersion() == PostgresStore.currentSchemaVersion)
            #expect(try await store.rawStrings("SELECT post_id FROM post_search_fields") == ["1"])
            #expect(try await store.rawStrings("SELECT description || '|' || tags || '|' || people FROM post_search_fields") == [
                " creme brulee | dessert | chef zoe ",
            ])
            let viewer = try await store.createUser(name: "viewer", role: .member, passwordHash: "h", now: t0)
            let found = try await store.search(userID: viewer.id, query: SearchQuery.parse("brul"), offset: 0, limit: 5)
            #expect(found.items.map(\.post.id) == [1])
        }
    }

    @Test("upgrading a PostgreSQL database from p8 refolds its index: vowel signs stay in their word, Hebrew points fold away")
    func postgresMigrationRefoldsIndex() async throws {
        try await withPostgresStore(migrating: false) { (store) async throws in
            let before = try #require(ReelStorePostgres.Schema.migrations.firstIndex { $0.version == "p9_search_folding" })
            _ = try await store.migrate(Array(ReelStorePostgres.Schema.migrations.prefix(before)))
            try await store.executeForTesting("""
                INSERT INTO posts (id, folder_name, kind, status, description, date_added, content_hash)
                    VALUES (1, 'a', 'video', 'ready', 'किताब। שָׁלוֹם ΣΟΦΟΣ', 1700000000, 'ha')
                """)
            let folded = " किताब שלום σοφοσ "
            #expect(try await store.rawStrings("SELECT description FROM post_search_fields") != [folded])
            #expect(try await store.migrate().first == "p9_search_folding")  // later versions follow it
            #expect(try await store.rawStrings("SELECT description FROM post_search_fields") == [folded])
        }
    }
}

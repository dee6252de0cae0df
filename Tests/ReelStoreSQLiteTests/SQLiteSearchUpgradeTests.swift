import Foundation
import GRDB
import ReelModels
import ReelStore
@testable import ReelStorePostgres
@testable import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

@Suite("Search on SQLite: the v7 upgrade indexes ready posts")
struct SQLiteSearchUpgradeTests {
    @Test("upgrading a v7 library indexes its ready posts")
    func migrationFillsIndex() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let old = try SQLiteStore(path: folder.databasePath, migratingUpTo: "v7_post_revisions")
        try old.executeRaw("""
            INSERT INTO posts (id, folder_name, kind, status, description, date_added, content_hash)
                VALUES (1, 'a', 'video', 'ready', 'Crème brûlée', 1700000000, 'ha'),
                       (2, 'b', 'video', 'queued', 'Crème again', 1700000001, 'hb');
            INSERT INTO tags (name) VALUES ('dessert');
            INSERT INTO post_tag_ids (post_id, tag_id) VALUES (1, 1);
            """)
        let store = try SQLiteStore(path: folder.databasePath)
        #expect(try store.schemaVersion() == SQLiteStore.currentSchemaVersion)
        #expect(try store.rawStrings("SELECT rowid FROM post_search_fields WHERE post_search_fields MATCH 'tags : \" dessert \"'") == ["1"])
        #expect(try store.rawStrings("SELECT rowid FROM post_search_fields WHERE post_search_fields MATCH 'brul'") == ["1"])
        #expect(try store.rawStrings("SELECT description FROM post_search_fields WHERE rowid = 1") == [" creme brulee "])
        #expect(try store.rawStrings("SELECT COUNT(*) FROM post_search_fields") == ["1"])
        #expect(try store.rawStrings("SELECT name FROM sqlite_master WHERE name IN ('post_search', 'post_search_substrings')").isEmpty)
    }
}

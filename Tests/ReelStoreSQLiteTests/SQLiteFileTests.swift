import Foundation
import ReelModels
import ReelStore
import ReelStoreSQLite
import ReelTestSupport
import Testing
import ReelTestFiles

@Suite("A SQLite library file: opened twice, checked")
struct SQLiteFileTests {
    @Test("opening the same file twice keeps schema and data; the parent folder is created")
    func migrationsAreIdempotent() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try SQLiteStore(path: folder.databasePath)
        let (post, _) = try await first.insertPost(newPost(), maxAttempts: 3, now: t0)
        let second = try SQLiteStore(path: folder.databasePath)
        #expect(try second.schemaVersion() == SQLiteStore.currentSchemaVersion)
        #expect(try await second.post(id: post.id) == post)
        #expect(try second.check() == "ok")
    }

    @Test("integrity check passes on a fresh store", arguments: StoreLocation.allCases)
    func checkIsOK(location: StoreLocation) async throws {
        try await withStore(location) { (store) async throws in
            #expect(try store.check() == "ok")
            #expect(try store.schemaVersion() == SQLiteStore.currentSchemaVersion)
        }
    }
}

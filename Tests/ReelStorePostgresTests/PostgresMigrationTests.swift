import Foundation
import Logging
import ReelStorePostgres
import ReelTestSupport
import Testing

@Suite("PostgresStore migrations")
struct PostgresMigrationTests {
    @Test("four nodes migrating one fresh database at once all succeed, and each version is applied once")
    func concurrentMigrators() async throws {
        let url = try await PostgresCluster.shared.freshDatabase()
        let logger = testLogger
        let appliedLists = try await withThrowingTaskGroup(of: [String].self, returning: [[String]].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await PostgresStore.withStore(url: url, poolSize: 2, migrating: false, logger: logger) { (store) async throws in
                        try await store.migrate()
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(appliedLists.count == 4)
        #expect(appliedLists.flatMap { $0 }.sorted() == PostgresStore.schemaVersions.sorted(), "each version applied by one migrator")
        try await PostgresStore.withStore(url: url, migrating: false, logger: logger) { (store) async throws in
            #expect(try await store.migrate() == [], "nothing left to apply")
            #expect(try await store.schemaVersion() == PostgresStore.currentSchemaVersion)
            #expect(try await store.countUsers() == 0)
        }
        await PostgresCluster.shared.drop(url)
    }

    @Test("an empty database has no schema version until migrated")
    func emptyDatabase() async throws {
        try await withPostgresStore(migrating: false) { (store) async throws in
            #expect(try await store.schemaVersion() == nil)
            #expect(try await store.migrate() == PostgresStore.schemaVersions)
            #expect(try await store.schemaVersion() == PostgresStore.currentSchemaVersion)
        }
    }

    @Test("a server that is not there is a quick `unreachable`, naming the URL without its password")
    func unreachable() async throws {
        let port = try await LiveServer.freePort()
        let url = PostgresDatabaseURL(user: "reel", password: "hunter2", host: "127.0.0.1", port: port, database: "x")
        await #expect {
            try await PostgresStore.withStore(url: url, logger: testLogger) { _ in }
        } throws: { error in
            guard case PostgresStoreError.unreachable(let why)? = error as? PostgresStoreError else { return false }
            return why.hasPrefix("postgres://reel:***@127.0.0.1:\(port)/x: ") && !why.contains("hunter2")
        }
    }
}

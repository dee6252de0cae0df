import Foundation
import Logging
@testable import ReelStorePostgres
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
        let port = try await FreePorts.one()
        let url = PostgresDatabaseURL(user: "reel", password: "hunter2", host: "127.0.0.1", port: port, database: "x")
        await #expect {
            try await PostgresStore.withStore(url: url, logger: testLogger) { _ in }
        } throws: { error in
            guard case PostgresStoreError.unreachable(let why)? = error as? PostgresStoreError else { return false }
            return why.hasPrefix("postgres://reel:***@127.0.0.1:\(port)/x: ") && !why.contains("hunter2")
        }
    }
}

@Suite("PostgresStore migrations, failing")
struct PostgresFailingMigrationTests {
    @Test("a version that fails half-way leaves nothing of itself, and is not recorded")
    func failedVersionRollsBack() async throws {
        try await withPostgresStore(migrating: false) { (store) async throws in
            let good = PostgresMigration(version: "t1_good", statements: ["CREATE TABLE kept (id bigint)"])
            let bad = PostgresMigration(version: "t2_bad", statements: [
                "CREATE TABLE half_done (id bigint)",
                "INSERT INTO no_such_table VALUES (1)",
            ])
            await #expect(throws: PostgresStoreError.self) { _ = try await store.migrate([good, bad]) }
            #expect(try await store.rawStrings("SELECT version FROM reelhouse_migrations") == ["t1_good"])
            #expect(try await store.rawStrings("SELECT to_regclass('kept')::text") == ["kept"])
            #expect(try await store.rawStrings("SELECT coalesce(to_regclass('half_done')::text, 'absent')") == ["absent"])
            // Fixed, the same version applies on the next run; the good one is not run twice.
            let fixed = PostgresMigration(version: "t2_bad", statements: ["CREATE TABLE half_done (id bigint)"])
            #expect(try await store.migrate([good, fixed]) == ["t2_bad"])
        }
    }
}

import Foundation
import Logging
import PostgresNIO
import ReelStore

extension PostgresStore {
    /// Applies the versions this database lacks, oldest first, and returns the ones it applied.
    ///
    /// Each version is one transaction that first takes `pg_advisory_xact_lock(hashtext(…))`
    /// and then checks `reelhouse_migrations`: of several nodes migrating at once, one applies a
    /// version while the others wait on the lock, then find it recorded and move on.
    @discardableResult
    public func migrate() async throws -> [String] {
        try await migrate(Schema.migrations)
    }

    /// `migrate()` over any list of versions (tests pass one that fails half-way).
    func migrate(_ migrations: [PostgresMigration]) async throws -> [String] {
        var applied: [String] = []
        for migration in migrations {
            let didApply: Bool = try await write { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(Schema.lockKey)))", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: Schema.createLedger), logger: logger)
                let rows = try await connection.query(
                    "SELECT 1 FROM reelhouse_migrations WHERE version = \(migration.version)", logger: logger
                ).collect()
                guard rows.isEmpty else { return false }
                for statement in migration.statements {
                    do {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    } catch {
                        throw PostgresStoreError.migrationFailed(version: migration.version, reason: Self.reason(error))
                    }
                }
                try await connection.query(
                    "INSERT INTO reelhouse_migrations (version) VALUES (\(migration.version))", logger: logger
                )
                return true
            }
            if didApply {
                applied.append(migration.version)
                logger.info("applied migration", metadata: ["version": "\(migration.version)"])
            }
        }
        return applied
    }

    /// The newest applied version (nil on an empty database).
    public func schemaVersion() async throws -> String? {
        try await read { connection in
            let exists = try await connection.query(
                "SELECT to_regclass('reelhouse_migrations') IS NOT NULL", logger: logger
            ).collect()
            guard try exists.first?.decode(Bool.self) == true else { return nil }
            let versions = try await connection.query("SELECT version FROM reelhouse_migrations", logger: logger).collect()
                .map { try $0.decode(String.self) }
            // Applied versions in list order: their text does not sort by age (p10 < p2).
            return Schema.versions.last(where: versions.contains)
        }
    }

    /// The schema version this build writes.
    public static var currentSchemaVersion: String { Schema.versions.last ?? "" }

    /// Every version this build knows, oldest first.
    public static var schemaVersions: [String] { Schema.versions }
}

import Foundation
import Logging
import ReelModels
import ReelStore
import ReelStorePostgres
import ReelStoreSQLite
import ReelTestFiles

/// What a parameterised store suite receives its store as: every store protocol (both
/// backends answer all of them) and the job suites' shortcut.
public typealias PortableStore = MetadataStore & PostJobEnqueuing

/// A job for a post without `insertPost` (the job suites' shortcut), which both stores offer
/// outside the protocols.
public protocol PostJobEnqueuing: Sendable {
    func enqueue(kind: JobKind, postID: Int64?, maxAttempts: Int, now: Date) async throws -> Job
}

extension SQLiteStore: PostJobEnqueuing {}
extension PostgresStore: PostJobEnqueuing {}

/// The kinds of metadata store a suite runs against: one suite, parameterised over both, so
/// the two stores are held to the same answers.
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A file-backed SQLite store in a temporary folder (WAL, the real production setup).
    case sqlite
    /// A fresh database on this process's private PostgreSQL cluster (`PostgresCluster`).
    case postgres

    public var description: String { rawValue }
}

/// Runs `body` with a fresh, migrated store of `backend`, and deletes it afterwards (its
/// folder, or its database).
public func withStore(_ backend: StoreBackend, _ body: (any PortableStore) async throws -> Void) async throws {
    switch backend {
    case .sqlite:
        let folder = try TemporaryFolder(prefix: "reel-store")
        defer { folder.remove() }
        try await body(try SQLiteStore(path: folder.databasePath))
    case .postgres:
        try await withPostgresStore { store in try await body(store) }
    }
}

/// Runs `body` with a `PostgresStore` on a fresh database of the test cluster (migrated when
/// `migrating`), running its pool for the closure's length and dropping the database after.
public func withPostgresStore(
    migrating: Bool = true, poolSize: Int = 4, _ body: (PostgresStore) async throws -> Void
) async throws {
    let url = try await PostgresCluster.shared.freshDatabase()
    do {
        try await PostgresStore.withStore(url: url, poolSize: poolSize, migrating: migrating, logger: testLogger) { store in
            try await body(store)
        }
    } catch {
        await PostgresCluster.shared.drop(url)
        throw error
    }
    await PostgresCluster.shared.drop(url)
}

/// Quiet unless a test asks for more: store logs would drown the test output.
public let testLogger: Logger = {
    var logger = Logger(label: "reelhouse.tests")
    logger.logLevel = .warning
    return logger
}()

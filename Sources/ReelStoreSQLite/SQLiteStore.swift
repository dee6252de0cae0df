import Foundation
import GRDB
import NIOCore
import NIOPosix
import ReelStore
import ReelStoreCore

/// The library, the job queue, accounts, per-user state and the feed in one SQLite file.
///
/// A file-backed store uses a WAL `DatabasePool`, so readers never wait for the writer, and a
/// busy timeout, so several processes (a `reelhouse worker` and a `reelhouse import`, say) can
/// share the file: a writer that finds the database locked waits up to `busyTimeout` instead of
/// failing at once. Every write is one `BEGIN IMMEDIATE` transaction: the write lock is taken
/// before the first read, so two processes can never both read "job 7 is free" and both take it.
public final class SQLiteStore: LibraryStore, JobStore, AccountStore, SocialStore, FeedStore, SearchStore, CatalogStore, CollectionStore, Sendable {
    /// How long a write waits for another connection's (or process's) write to finish.
    public static let busyTimeout: TimeInterval = 5

    let writer: any DatabaseWriter
    /// Posts listings read, by (id, revision): the store core's, shared by every listing.
    public let postCache = PostCache()

    /// Opens (creating if needed) the database file at `path`, its parent folder included, and
    /// brings its schema up to date.
    public convenience init(path: String) throws {
        try self.init(path: path, migratingUpTo: nil)
    }

    /// Opens the file with migrations applied up to `version` only (nil: all of them), so tests
    /// can build an old-schema file and check that upgrading it keeps its data.
    init(path: String, migratingUpTo version: String?) throws {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StoreError.unavailable("cannot create \(parent.path): \(error.localizedDescription)")
        }
        writer = try Self.openPool(path: path)
        try migrate(upTo: version)
    }

    /// Opens the pool, retrying briefly: switching a brand-new file to WAL takes an exclusive
    /// lock that SQLite does not wait for, so processes opening a fresh file at the same moment
    /// can see "database is locked" once.
    private static func openPool(path: String) throws -> DatabasePool {
        var attempt = 0
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration())
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                attempt += 1
                if attempt >= 20 { throw storeError(error) }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            } catch {
                throw storeError(error)
            }
        }
    }

    /// A private database that lives as long as the store; for tests and previews.
    public static func inMemory() throws -> SQLiteStore {
        do {
            return try SQLiteStore(writer: DatabaseQueue(configuration: configuration()))
        } catch {
            throw storeError(error)
        }
    }

    private init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try migrate()
    }

    /// How much of the file reads map (`PRAGMA mmap_size`).
    static let mmapBytes: Int64 = 2 << 30

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "reelhouse"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL is crash-safe (a power cut may only lose the last commits).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Reads through a memory map instead of a pread per page: on 1M posts, where every
            // feed page lands on cold rows, the copies were a tenth of the server's time. Only
            // address space: the pages are the kernel's file cache, shared by every connection.
            // SQLite caps it at its compiled maximum (2 GB on Debian).
            try db.execute(sql: "PRAGMA mmap_size = \(Self.mmapBytes)")
            // The search index's triggers fold text with them (`Schema.addSearchFields`).
            for function in SearchFolding.functions { db.add(function: function) }
            // The A–Z key's triggers call it (`Schema.addCatalog`).
            db.add(function: TitleKeyFunction.function)
            // For You's uploader index and the feed's hidden uploaders (`Schema.addForYouIndexes`).
            db.add(function: UploaderKeyFunction.function)
        }
        return configuration
    }

    /// Applies missing migrations. Two processes opening a fresh file at the same moment can
    /// both see a migration as missing (GRDB reads the applied list outside a transaction);
    /// the loser's `CREATE TABLE` fails (or finds the file locked), and a retry after a short
    /// pause finds the migration applied.
    private func migrate(upTo version: String? = nil) throws {
        let migrator = Schema.migrator
        func run() throws {
            if let version {
                try migrator.migrate(writer, upTo: version)
            } else {
                try migrator.migrate(writer)
            }
        }
        var attempt = 0
        while true {
            do {
                try run()
                return
            } catch {
                attempt += 1
                if attempt >= 10 { throw Self.storeError(error) }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
        }
    }

    // MARK: - Maintenance (`reelhouse doctor`)

    /// The identifier of the newest applied migration, e.g. `v1_posts_jobs`.
    public func schemaVersion() throws -> String? {
        do {
            return try writer.read { db in try Schema.migrator.appliedMigrations(db).last }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The schema version this build of Reelhouse writes.
    public static var currentSchemaVersion: String { Schema.versions.last ?? "" }

    /// Runs SQLite's integrity and foreign key checks. Returns `"ok"` or the problems found,
    /// one per line, in SQLite's words.
    public func check() throws -> String {
        do {
            return try writer.read { db in
                var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                problems += orphans.map { row in
                    "row \(row[1] as Int64? ?? 0) of \(row[0] as String? ?? "?") points to a missing \(row[2] as String? ?? "?") row"
                }
                return problems.isEmpty ? "ok" : problems.joined(separator: "\n")
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    // MARK: - Transactions

    /// Reads from a consistent snapshot, on one of `readThreads`.
    ///
    /// GRDB's async `read` reaches a connection through a reader-pool wait, a hop onto the
    /// connection's dispatch queue and a hop back; for a feed page that path cost more than the
    /// query itself (`make bench`: feed ÷ /api/v1/me 0.36 with it, 0.46 with this). Its
    /// synchronous `read` on a thread of our own is one hand-off each way, and still keeps SQLite,
    /// which may wait on the disk, off Swift's cooperative pool.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = writer
        do {
            return try await Self.readThreads.runIfActive { try writer.read(body) }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The threads reads run on, one per core: more only add context switches (on 2 cores, 4
    /// threads gave feed ÷ /api/v1/me 0.37, 2 threads 0.45). Shared by every store in the
    /// process and never shut down, like NIO's own singletons. Not NIO's shared blocking pool,
    /// where a read would wait behind an upload's chunk write or a video's hashing.
    static let readThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        return pool
    }()

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction (GRDB 7's default for writes too, but
    /// the claim protocol depends on it, so it is spelled out).
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StoreError.corrupt("transaction produced no result") }
                return result
            }
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Translates GRDB's errors into the store's one error type; cancellation and errors that
    /// already are `StoreError` pass through unchanged.
    static func storeError(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_CONSTRAINT:
            return StoreError.conflict(error.message ?? error.description)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StoreError.corrupt(error.message ?? error.description)
        case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_CANTOPEN:
            return StoreError.unavailable(error.message ?? error.description)
        default:
            return StoreError.failed(error.message ?? error.description)
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import ReelPipeline
import ReelServer
import ReelStorage
import ReelStorePostgres
import ReelStoreSQLite

/// `reelhouse migrate [--database-url URL]`: brings the store's schema up to date and exits.
///
/// SQLite: opening the store migrates it (the data folder is created if needed, so a node can
/// be prepared before its first start). PostgreSQL: the versions run one transaction each
/// under an advisory lock, so nodes migrating at once do not race. The URL comes from the flag,
/// `REELHOUSE_DATABASE_URL` or `databaseUrl` in the data folder's config.json, in that order of
/// precedence; it is printed only with its password hidden.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the store's pending schema migrations and exit (SQLite in --data, or PostgreSQL)."
    )

    @OptionGroup var dataOptions: DataOptions
    @Option(name: .long, help: "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (env REELHOUSE_DATABASE_URL; default: SQLite in the data folder).")
    var databaseURL: String?

    func run() async throws {
        let settings = try loadSettings()
        guard let text = settings.databaseUrl else {
            try migrateSQLite()
            return
        }
        let url: PostgresDatabaseURL
        do {
            url = try PostgresDatabaseURL(text)
        } catch {
            throw CLIError("migrate: \(error)")
        }
        var logger = Logger(label: "reelhouse.migrate")
        logger.logLevel = .warning
        do {
            let (applied, version) = try await PostgresStore.withStore(url: url, poolSize: 1, migrating: false, logger: logger) { store in
                (try await store.migrate(), try await store.schemaVersion())
            }
            print("\(url): applied \(applied.count) migration(s)\(applied.isEmpty ? "" : " (\(applied.joined(separator: ", ")))"); schema version \(version ?? "none")")
        } catch {
            throw CLIError("migrate: \(error)")
        }
    }

    private func migrateSQLite() throws {
        let folder = DataFolder(root: URL(fileURLWithPath: dataOptions.resolvedPath))
        do {
            try folder.prepare()
            let store = try SQLiteStore(path: folder.databasePath)
            print("\(folder.databasePath): schema version \(try store.schemaVersion() ?? "none")")
        } catch {
            throw CLIError("migrate: cannot open the database at \(folder.databasePath): \(error)")
        }
    }

    /// The database settings from their layers (config file < environment < flag), without
    /// opening a store: a PostgreSQL node may have no SQLite library at all.
    private func loadSettings() throws -> ServerConfiguration {
        let file = URL(fileURLWithPath: dataOptions.resolvedPath).appendingPathComponent("config.json")
        let data = FileManager.default.fileExists(atPath: file.path) ? try Data(contentsOf: file) : nil
        do {
            return try ConfigurationLoader.load(
                file: data, environment: ProcessInfo.processInfo.environment,
                overrides: databaseURL.map { ["databaseUrl": $0] } ?? [:]
            )
        } catch {
            throw CLIError("migrate: \(error)")
        }
    }
}

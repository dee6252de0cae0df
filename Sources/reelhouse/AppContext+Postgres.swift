import Foundation
import Logging
import ReelPipeline
import ReelServer
import ReelStorage
import ReelStore
import ReelStorePostgres

extension AppContext {
    /// The PostgreSQL branch of `withLibrary`: the server is checked first (an unreachable one
    /// is one line at once, not a hang), the schema brought up to date under the migrations'
    /// advisory lock (so nodes starting together do not race), and the pool (`databasePool`
    /// connections at most) runs for the length of `body`.
    ///
    /// The pool brackets the command rather than sitting in the node's `ServiceGroup`: `serve`
    /// and `worker` use the store before their group starts (the owner account, recovering
    /// uploads, scheduling the upkeep jobs), and their workers use it while the group shuts
    /// down (a running job is released back to the queue), so the store outlives the group.
    static func withPostgres<Result: Sendable>(
        _ text: String, dataFolder: DataFolder, settings: ServerConfiguration, command: String, logger: Logger,
        _ body: (AppContext) async throws -> Result
    ) async throws -> Result {
        let url: PostgresDatabaseURL
        do {
            url = try PostgresDatabaseURL(text)
        } catch {
            throw CLIError("\(command): databaseUrl: \(error)")
        }
        // The data folder keeps the secret, the config file and the local work files.
        try prepare(dataFolder)
        var storeLogger = logger
        storeLogger[metadataKey: "database"] = "\(url)"
        do {
            return try await PostgresStore.withStore(url: url, poolSize: settings.databasePool, logger: storeLogger) { store in
                let context = try AppContext(
                    dataFolder: dataFolder, store: store, sqlite: nil, jobWakeups: store, sharedRateLimits: store,
                    settings: settings, logger: logger
                )
                logger.info("library in PostgreSQL", metadata: ["database": "\(url)", "pool": "\(settings.databasePool)"])
                return try await body(context)
            }
        } catch let error as PostgresStoreError {
            throw CLIError("\(command): \(error)")
        }
    }
}

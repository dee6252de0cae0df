import ArgumentParser
import Foundation
import Logging
import ReelJobs
import ReelPipeline
import ReelServer
import ReelStorage
import ReelStoreSQLite
import ServiceLifecycle
import UnixSignals

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run queued jobs (transcodes, upload imports, generations, upkeep) until stopped (SIGINT/SIGTERM stop it gracefully)."
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var media: MediaOptions

    @Option(name: .long, help: "Jobs to run at once (env REELHOUSE_WORKER_CONCURRENCY; default: 1 on ≤ 2 cores).")
    var concurrency: Int?

    func run() async throws {
        var context = try AppContext(dataPath: dataOptions.resolvedPath, logLevel: .info)
        // The same settings `serve` reads (config file and environment) for what jobs need.
        let configuration = try context.settings(command: "worker", flags: media.flags(workerConcurrency: concurrency))
        try context.useStorage(configuration)
        let uploads = try UploadSetup.dependencies(context: context, configuration: configuration)
        try await UploadSetup.recoverPending(uploads, logger: context.logger)
        let generations = try GenerationSetup.dependencies(context: context, configuration: configuration)
        let light = try await LightJobs.handlers(
            context: context, configuration: configuration, uploads: uploads, generations: generations
        )
        let workers = context.workers(settings: configuration, light: light)
        let group = ServiceGroup(
            services: workers, gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger
        )
        context.logger.info("worker started", metadata: ["data": "\(context.dataFolder.root.path)"])
        try await group.run()
    }
}

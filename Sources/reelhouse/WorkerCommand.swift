import ArgumentParser
import Foundation
import Logging
import ReelJobs
import ReelPipeline
import ReelServer
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
        let context = try AppContext(dataPath: dataOptions.resolvedPath, logLevel: .info)
        let env = ProcessInfo.processInfo.environment["REELHOUSE_WORKER_CONCURRENCY"].flatMap(Int.init)
        // The same settings `serve` reads (config file and environment) for what jobs need.
        let file = context.dataFolder.root.appendingPathComponent("config.json")
        let configuration = try ConfigurationLoader.load(
            file: try? Data(contentsOf: file), environment: ProcessInfo.processInfo.environment, overrides: [:]
        )
        let uploads = try UploadSetup.dependencies(context: context, configuration: configuration, limits: media.limits)
        try await uploads.imports.recoverPending(now: Date())
        let generations = try GenerationSetup.dependencies(context: context, configuration: configuration, limits: media.limits)
        let light = try await LightJobs.handlers(
            context: context, configuration: configuration, limits: media.limits, uploads: uploads, generations: generations
        )
        var pipeline = media.pipeline
        pipeline.keepOriginalUploads = configuration.keepOriginalUploads
        let workers = context.workers(concurrency: concurrency ?? env, configuration: pipeline, light: light)
        let group = ServiceGroup(
            services: workers, gracefulShutdownSignals: [.sigterm, .sigint], logger: context.logger
        )
        context.logger.info("worker started", metadata: ["data": "\(context.dataFolder.root.path)"])
        try await group.run()
    }
}
